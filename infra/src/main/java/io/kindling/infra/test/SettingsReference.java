package io.kindling.infra.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.Yaml;

/**
 * Holds {@code docs/settings.md} to the settings records. Every property of every
 * {@code @ConfigurationProperties} record under a package must have a row there, its
 * default written as the record's {@code @DefaultValue} writes it; and a service's
 * {@code application.yml} must not set one of them to that default, since the record is
 * the one place it lives.
 * <p>
 * A row is {@code | `kindling.some.setting` | default | meaning |}; the default cell is
 * the value in backticks, {@code empty} for an empty string or {@code none} when the
 * record has no default (the setting must be given, or is left unset), and may go on with
 * words after that. Spring's annotations are read by name, so this class needs no Spring
 * on its own classpath.
 */
public final class SettingsReference {

	private static final String CONFIGURATION_PROPERTIES = "org.springframework.boot.context.properties.ConfigurationProperties";

	private static final String DEFAULT_VALUE = "org.springframework.boot.context.properties.bind.DefaultValue";

	private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z][^`]*)`\\s*\\|\\s*([^|]*?)\\s*\\|");

	/** What a row says of a setting without a default. */
	private static final String NONE = "none";

	private SettingsReference() {
	}

	/** The project's {@code docs/settings.md}. */
	public static Path settingsDoc() {
		String root = System.getProperty("kindling.root");
		return Path.of((root != null) ? root : ".").resolve("docs/settings.md");
	}

	/**
	 * Fails, naming each, when a setting of a record under the package is missing from
	 * the document or documented with another default than its record's.
	 */
	public static void assertDocumented(String basePackage, Path document) {
		Map<String, String> declared = declared(basePackage);
		Map<String, String> documented = documented(document);
		if (declared.isEmpty()) {
			throw new AssertionError("no @ConfigurationProperties records under " + basePackage);
		}
		List<String> problems = new ArrayList<>();
		declared.forEach((name, value) -> {
			if (!documented.containsKey(name)) {
				problems.add(name + " (default " + shown(value) + ") is not in " + document);
			}
			else if (!documented.get(name).equals(value)) {
				problems.add(name + " is documented with default " + shown(documented.get(name)) + ", its record has "
						+ shown(value));
			}
		});
		if (!problems.isEmpty()) {
			throw new AssertionError(String.join("\n", problems));
		}
	}

	/**
	 * Fails, naming each, when the YAML file sets a setting of a record under the package
	 * to its record's default, other than those named as set so on purpose.
	 */
	public static void assertNoDefaultRepeated(String basePackage, Path applicationYml, String... onPurpose) {
		Map<String, String> declared = declared(basePackage);
		Set<String> allowed = Set.of(onPurpose);
		List<String> problems = new ArrayList<>();
		yamlProperties(applicationYml).forEach((name, value) -> {
			String setting = name.replaceAll("\\[\\d+]", "[i]");
			if (!allowed.contains(name) && value.equals(declared.get(setting))) {
				problems.add(name + ": " + value + " repeats its record's default");
			}
		});
		if (!problems.isEmpty()) {
			throw new AssertionError(applicationYml + ":\n" + String.join("\n", problems));
		}
	}

	/**
	 * Every setting of the records under the package, by name (a list's elements as
	 * {@code name[i].property}), with its default ({@code none} without one).
	 */
	public static Map<String, String> declared(String basePackage) {
		Map<String, String> settings = new TreeMap<>();
		for (Class<?> type : classesUnder(basePackage)) {
			Annotation properties = annotation(type.getAnnotations(), CONFIGURATION_PROPERTIES);
			if (properties != null) {
				String prefix = attribute(properties, "value");
				walk(type, prefix.isEmpty() ? attribute(properties, "prefix") : prefix, settings);
			}
		}
		return settings;
	}

	/** Every row of the document, by setting name, with its default. */
	public static Map<String, String> documented(Path document) {
		Map<String, String> rows = new TreeMap<>();
		try {
			for (String line : Files.readAllLines(document)) {
				Matcher row = ROW.matcher(line);
				if (row.find()) {
					rows.put(row.group(1), defaultCell(row.group(2), line));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return rows;
	}

	private static String defaultCell(String cell, String line) {
		if (cell.startsWith("`")) {
			int end = cell.indexOf('`', 1);
			if (end > 0) {
				return cell.substring(1, end);
			}
		}
		if (cell.startsWith(NONE)) {
			return NONE;
		}
		if (cell.startsWith("empty")) {
			return "";
		}
		throw new AssertionError("a default is `value`, empty or none, not '" + cell + "': " + line);
	}

	private static void walk(Class<?> record, String prefix, Map<String, String> settings) {
		if (!record.isRecord()) {
			throw new AssertionError(record.getName() + " binds " + prefix + " but is not a record");
		}
		RecordComponent[] components = record.getRecordComponents();
		Annotation[][] parameters = canonicalConstructor(record).getParameterAnnotations();
		for (int i = 0; i < components.length; i++) {
			String name = prefix + "." + kebab(components[i].getName());
			Class<?> type = components[i].getType();
			Annotation defaultValue = annotation(parameters[i], DEFAULT_VALUE);
			Class<?> element = listElement(components[i].getGenericType());
			if (type.isRecord()) {
				walk(type, name, settings);
			}
			else if (element != null && element.isRecord()) {
				walk(element, name + "[i]", settings);
			}
			else if (defaultValue == null) {
				settings.put(name, NONE);
			}
			else {
				settings.put(name, String.join(",", (String[]) attributeValue(defaultValue, "value")));
			}
		}
	}

	private static @Nullable Class<?> listElement(Type type) {
		if (type instanceof ParameterizedType list && list.getRawType() == List.class
				&& list.getActualTypeArguments()[0] instanceof Class<?> element) {
			return element;
		}
		return null;
	}

	private static Constructor<?> canonicalConstructor(Class<?> record) {
		Class<?>[] types = Arrays.stream(record.getRecordComponents())
			.map(RecordComponent::getType)
			.toArray(Class<?>[]::new);
		try {
			return record.getDeclaredConstructor(types);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String kebab(String name) {
		return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private static @Nullable Annotation annotation(Annotation[] annotations, String typeName) {
		for (Annotation annotation : annotations) {
			if (annotation.annotationType().getName().equals(typeName)) {
				return annotation;
			}
		}
		return null;
	}

	private static String attribute(Annotation annotation, String name) {
		return (String) attributeValue(annotation, name);
	}

	private static Object attributeValue(Annotation annotation, String name) {
		try {
			return annotation.annotationType().getMethod(name).invoke(annotation);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static String shown(String value) {
		return NONE.equals(value) ? NONE : "`" + value + "`";
	}

	/** The file's settings as flat names ({@code a.b[0].c}) with their text. */
	static Map<String, String> yamlProperties(Path file) {
		Map<String, String> properties = new TreeMap<>();
		try (InputStream in = Files.newInputStream(file)) {
			for (Object document : new Yaml().loadAll(in)) {
				flatten("", document, properties);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return properties;
	}

	private static void flatten(String name, @Nullable Object value, Map<String, String> properties) {
		if (value instanceof Map<?, ?> map) {
			map.forEach((key, child) -> flatten(name.isEmpty() ? String.valueOf(key) : name + "." + key, child,
					properties));
		}
		else if (value instanceof List<?> list) {
			for (int i = 0; i < list.size(); i++) {
				flatten(name + "[" + i + "]", list.get(i), properties);
			}
		}
		else {
			properties.put(name, String.valueOf(value));
		}
	}

	private static Set<Class<?>> classesUnder(String basePackage) {
		String path = basePackage.replace('.', '/');
		Set<String> names = new TreeSet<>();
		ClassLoader loader = Thread.currentThread().getContextClassLoader();
		try {
			Enumeration<URL> roots = loader.getResources(path);
			for (URL root : Collections.list(roots)) {
				if (root.getProtocol().equals("file")) {
					Path dir = Path.of(root.toURI());
					try (Stream<Path> files = Files.walk(dir)) {
						files.map((file) -> path + "/" + dir.relativize(file).toString().replace('\\', '/'))
							.forEach(names::add);
					}
				}
				else if (root.openConnection() instanceof JarURLConnection connection) {
					// its own copy of the jar, so closing it leaves the class loader's
					// open
					connection.setUseCaches(false);
					try (JarFile jar = connection.getJarFile()) {
						for (JarEntry entry : Collections.list(jar.entries())) {
							if (entry.getName().startsWith(path + "/")) {
								names.add(entry.getName());
							}
						}
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
		Set<Class<?>> classes = new LinkedHashSet<>();
		for (String name : names) {
			if (name.endsWith(".class") && !name.endsWith("package-info.class")
					&& !name.endsWith("module-info.class")) {
				try {
					classes.add(Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, loader));
				}
				catch (ClassNotFoundException | LinkageError ex) {
					// a class whose dependencies this classpath lacks holds no settings
					// here
				}
			}
		}
		return classes;
	}

}
