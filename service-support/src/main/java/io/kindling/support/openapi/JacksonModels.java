package io.kindling.support.openapi;

import java.lang.reflect.AnnotatedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.Schema;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;

/**
 * Schemas of the JSON as the services' Jackson really writes it: property names in
 * snake_case ({@code spring.jackson.property-naming-strategy}), and for a record every
 * component present in the JSON, {@code null} only where the component is
 * {@code @Nullable}. A nullable request field that validation requires ({@code @NotNull})
 * is required and not null.
 */
// swagger-core reads types with its own Jackson 2 mapper, so it is told the naming here
final class JacksonModels extends ModelResolver {

	private static final PropertyNamingStrategies.NamingBase SNAKE_CASE = (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

	/** Subtypes by schema name: the same in every application context of a JVM. */
	private static final Map<String, NamedSubtype> SUBTYPES = new ConcurrentHashMap<>();

	/**
	 * Which class each schema name stands for: two with one name would share a schema.
	 */
	private final Map<String, Class<?>> named = new ConcurrentHashMap<>();

	JacksonModels() {
		super(Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
		openapi31(true);
	}

	@Override
	public @Nullable Schema resolve(io.swagger.v3.core.converter.AnnotatedType annotatedType,
			ModelConverterContext context, Iterator<ModelConverter> next) {
		Schema resolved = super.resolve(annotatedType, context, next);
		Class<?> type = rawClass(annotatedType.getType());
		if (resolved != null && type != null && type.isRecord()) {
			Schema model = resolved;
			if (resolved.get$ref() != null) {
				String name = resolved.get$ref().substring(resolved.get$ref().lastIndexOf('/') + 1);
				model = context.getDefinedModels().get(name);
			}
			if (model != null) {
				describeNulls(model, type);
			}
			rememberSubtype(type);
		}
		return resolved;
	}

	@Override
	protected String _typeName(JavaType type, BeanDescription description) {
		String name = super._typeName(type, description);
		// long and Long (a List<Long>'s items) are one schema, "long"
		Class<?> raw = ClassUtils.resolvePrimitiveIfNecessary(type.getRawClass());
		Class<?> taken = this.named.putIfAbsent(name, raw);
		if (taken != null && taken != raw) {
			throw new IllegalStateException(
					"Two types would have the one schema " + name + " in the OpenAPI description: " + taken.getName()
							+ " and " + type.getRawClass().getName() + "; rename one");
		}
		return name;
	}

	@SuppressWarnings({ "rawtypes", "unchecked" })
	private static void describeNulls(Schema model, Class<?> type) {
		Map<String, Schema> properties = ownProperties(model);
		if (properties == null) {
			return;
		}
		List<String> required = new ArrayList<>();
		for (RecordComponent component : type.getRecordComponents()) {
			String name = SNAKE_CASE.translate(component.getName());
			Schema property = properties.get(name);
			if (property == null) {
				// @JsonIgnore'd
				continue;
			}
			if (isNullable(component) && !isRequired(type, component)) {
				properties.put(name, nullable(property));
			}
			else {
				required.add(name);
			}
		}
		model.setRequired(required.isEmpty() ? null : required);
	}

	/** A subtype's own properties: beside its supertype's, in its allOf. */
	@SuppressWarnings("rawtypes")
	private static @Nullable Map<String, Schema> ownProperties(Schema model) {
		if (model.getProperties() != null) {
			return model.getProperties();
		}
		List<Schema> parts = model.getAllOf();
		if (parts == null) {
			return null;
		}
		return parts.stream()
			.map(Schema::getProperties)
			.filter((properties) -> properties != null)
			.reduce((first, second) -> second)
			.orElse(null);
	}

	/**
	 * Remembers a subtype that Jackson writes with its name in a property (a matched
	 * status as {@code "status": "matched"}): swagger-core rebuilds subtypes' schemas
	 * after this converter, so {@link #completeSubtypes} adds that property to them once
	 * the document is whole.
	 */
	private void rememberSubtype(Class<?> type) {
		for (Class<?> supertype : type.getInterfaces()) {
			JsonTypeInfo info = supertype.getAnnotation(JsonTypeInfo.class);
			JsonSubTypes subtypes = supertype.getAnnotation(JsonSubTypes.class);
			if (info == null || subtypes == null || info.use() != JsonTypeInfo.Id.NAME) {
				continue;
			}
			for (JsonSubTypes.Type subtype : subtypes.value()) {
				if (subtype.value() == type) {
					this.named.entrySet()
						.stream()
						.filter((entry) -> entry.getValue() == type)
						.forEach((entry) -> SUBTYPES.put(entry.getKey(),
								new NamedSubtype(info.property(), subtype.name())));
				}
			}
		}
	}

	/**
	 * Each subtype's schema gets its name's property with that one value, required, so
	 * that a body matches one subtype only; its supertype's discriminator maps the value
	 * to it.
	 */
	@SuppressWarnings({ "rawtypes", "unchecked" })
	static void completeSubtypes(Map<String, Schema> schemas) {
		SUBTYPES.forEach((name, subtype) -> {
			Schema schema = schemas.get(name);
			if (schema == null || schema.getAllOf() == null) {
				return;
			}
			boolean done = ((List<Schema>) schema.getAllOf()).stream()
				.anyMatch((part) -> part.getProperties() != null && part.getProperties().get(subtype.property()) != null
						&& ((Schema) part.getProperties().get(subtype.property())).getConst() != null);
			if (done) {
				return;
			}
			Map<String, Schema> property = new LinkedHashMap<>();
			property.put(subtype.property(), new JsonSchema().types(Set.of("string"))._const(subtype.value()));
			List<Schema> parts = new ArrayList<>(schema.getAllOf());
			parts.add(new JsonSchema().properties(property));
			schema.setAllOf(parts);
			List<String> required = new ArrayList<>();
			required.add(subtype.property());
			if (schema.getRequired() != null) {
				((List<String>) schema.getRequired()).stream()
					.filter((other) -> !other.equals(subtype.property()))
					.forEach(required::add);
			}
			schema.setRequired(required);
			for (Schema part : (List<Schema>) schema.getAllOf()) {
				String ref = part.get$ref();
				Schema supertype = (ref != null) ? schemas.get(ref.substring(ref.lastIndexOf('/') + 1)) : null;
				if (supertype != null && supertype.getDiscriminator() != null) {
					supertype.getDiscriminator().mapping(subtype.value(), "#/components/schemas/" + name);
				}
			}
		});
	}

	record NamedSubtype(String property, String value) {

	}

	@SuppressWarnings({ "rawtypes", "unchecked" })
	private static Schema nullable(Schema property) {
		if (property.get$ref() != null || property.getTypes() == null) {
			return new JsonSchema().anyOf(List.of(property, new JsonSchema().types(Set.of("null"))));
		}
		Set<String> types = new LinkedHashSet<>(property.getTypes());
		types.add("null");
		property.setTypes(types);
		return property;
	}

	private static boolean isNullable(RecordComponent component) {
		return component.getAnnotatedType().isAnnotationPresent(Nullable.class);
	}

	private static boolean isRequired(Class<?> type, RecordComponent component) {
		AnnotatedType annotated = component.getAnnotatedType();
		if (annotated.isAnnotationPresent(NotNull.class) || annotated.isAnnotationPresent(NotBlank.class)
				|| annotated.isAnnotationPresent(NotEmpty.class)) {
			return true;
		}
		try {
			var field = type.getDeclaredField(component.getName());
			return field.isAnnotationPresent(NotNull.class) || field.isAnnotationPresent(NotBlank.class)
					|| field.isAnnotationPresent(NotEmpty.class);
		}
		catch (NoSuchFieldException ex) {
			return false;
		}
	}

	private @Nullable Class<?> rawClass(@Nullable Type type) {
		if (type == null) {
			return null;
		}
		if (type instanceof Class<?> raw) {
			return raw;
		}
		JavaType javaType = (type instanceof JavaType known) ? known : this._mapper.constructType(type);
		return javaType.getRawClass();
	}

}
