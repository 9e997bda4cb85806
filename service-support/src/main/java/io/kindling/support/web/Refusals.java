package io.kindling.support.web;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AssignableTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * Every refusal a service can answer with, by slug: the web edge's {@link ProblemType}s
 * and the constants of each enum implementing {@link Refusal} under the service's
 * packages. Two declarations of one slug stop the start.
 */
public final class Refusals {

	private final Map<String, Refusal> bySlug;

	private Refusals(Map<String, Refusal> bySlug) {
		this.bySlug = Collections.unmodifiableMap(bySlug);
	}

	/**
	 * The web edge's types and the enums implementing {@link Refusal} under these
	 * packages.
	 */
	public static Refusals declaredIn(Collection<String> basePackages) {
		Set<Refusal> declared = new LinkedHashSet<>(List.of(ProblemType.values()));
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
		scanner.addIncludeFilter(new AssignableTypeFilter(Refusal.class));
		List<String> classes = new ArrayList<>();
		for (String basePackage : basePackages) {
			scanner.findCandidateComponents(basePackage)
				.stream()
				.map(BeanDefinition::getBeanClassName)
				.sorted()
				.forEach(classes::add);
		}
		for (String name : classes) {
			Class<?> type = ClassUtils.resolveClassName(name, Refusals.class.getClassLoader());
			if (!type.isEnum()) {
				throw new IllegalStateException(name + " implements Refusal but is not an enum: declare refusals as "
						+ "the constants of an enum");
			}
			for (Object constant : type.getEnumConstants()) {
				declared.add((Refusal) constant);
			}
		}
		Map<String, Refusal> bySlug = new LinkedHashMap<>();
		for (Refusal refusal : declared) {
			Refusal earlier = bySlug.putIfAbsent(refusal.slug(), refusal);
			if (earlier != null) {
				throw new IllegalStateException("The problem type " + refusal.slug() + " is declared twice: "
						+ describe(earlier) + " and " + describe(refusal));
			}
		}
		return new Refusals(bySlug);
	}

	/**
	 * @throws IllegalArgumentException for a slug nothing declares
	 */
	public Refusal bySlug(String slug) {
		Refusal refusal = this.bySlug.get(slug);
		if (refusal == null) {
			throw new IllegalArgumentException(
					"No refusal has the slug " + slug + "; declared are " + this.bySlug.keySet());
		}
		return refusal;
	}

	/**
	 * The web edge's types first, then the service's own, in the order of their
	 * declarations.
	 */
	public Collection<Refusal> all() {
		return this.bySlug.values();
	}

	/** The service's own, without the web edge's. */
	public List<Refusal> own() {
		return all().stream().filter((refusal) -> !(refusal instanceof ProblemType)).toList();
	}

	/**
	 * The service's own as docs/errors.md lists them: slug to status and title
	 * ({@code "404 No such match"}), by slug.
	 */
	public Map<String, String> ownAsDocumented() {
		Map<String, String> rows = new TreeMap<>();
		own().forEach((refusal) -> rows.put(refusal.slug(), refusal.status().value() + " " + refusal.title()));
		return rows;
	}

	/** Every type's URI, as a caller sees it in {@code type}. */
	public Set<String> uris() {
		Set<String> uris = new LinkedHashSet<>();
		all().forEach((refusal) -> uris.add(refusal.uri().toString()));
		return Collections.unmodifiableSet(uris);
	}

	private static String describe(Refusal refusal) {
		return refusal.getClass().getName() + "." + ((Enum<?>) refusal).name();
	}

}
