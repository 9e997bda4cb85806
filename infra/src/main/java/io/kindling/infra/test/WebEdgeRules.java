package io.kindling.infra.test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.lang.conditions.ArchPredicates.are;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The architecture rule every service checks: feature code throws the refusals it
 * declares and never speaks HTTP. Only the web adapters (controllers, argument resolvers,
 * interceptors, event-stream emitters, WebSocket handlers) and the service's {@code web}
 * package may. A refusal's declaration (an enum implementing {@code Refusal}) names its
 * status, and feature code may throw it ({@code Refused}) or one of the web edge's own
 * ({@code ProblemType}): that is the whole of the vocabulary it shares with the edge.
 */
public final class WebEdgeRules {

	private static final DescribedPredicate<JavaClass> WEB_ADAPTERS = DescribedPredicate
		.describe("web adapters (controllers, argument resolvers, interceptors, event streams, WebSocket handlers)",
				(type) -> type.isAnnotatedWith("org.springframework.web.bind.annotation.RestController")
						|| type.isAnnotatedWith("org.springframework.stereotype.Controller")
						|| assignableTo("org.springframework.web.method.support.HandlerMethodArgumentResolver")
							.test(type)
						|| assignableTo("org.springframework.web.servlet.HandlerInterceptor").test(type)
						|| assignableTo("org.springframework.web.socket.WebSocketHandler").test(type)
						|| holdsEventStreams(type)
						|| type.getEnclosingClass().map(WebEdgeRules::isController).orElse(false));

	private static final String REFUSAL = "io.kindling.support.web.Refusal";

	/** What feature code may use of the web edge: the refusals, nothing of HTTP. */
	private static final DescribedPredicate<JavaClass> REFUSAL_VOCABULARY = DescribedPredicate.describe(
			"the refusal vocabulary (Refusal, Refused, ProblemType)",
			(type) -> type.getName().equals(REFUSAL) || type.getName().equals(REFUSAL + "$Type")
					|| type.getName().equals("io.kindling.support.web.Refused")
					|| type.getName().equals("io.kindling.support.web.ProblemType"));

	private static final DescribedPredicate<JavaClass> REFUSAL_DECLARATIONS = DescribedPredicate
		.describe("refusal declarations", (type) -> type.isAssignableTo(REFUSAL));

	/** The arithmetic of addresses that limits and bans count by: no HTTP in it. */
	private static final DescribedPredicate<JavaClass> NETWORKS = DescribedPredicate.describe("Networks",
			(type) -> type.getName().equals("io.kindling.support.web.Networks"));

	private WebEdgeRules() {
	}

	/**
	 * Classes under {@code basePackage}, outside its edge packages ({@code web} and those
	 * named) and other than web adapters, depend on no HTTP type: not Spring's
	 * ({@code org.springframework.http}), not the servlet API, not the shared web edge.
	 * @param basePackage the service's root package
	 * @param edgePackages more packages of the edge besides {@code web}, such as
	 * {@code security}
	 */
	public static ArchRule featureCodeSpeaksNoHttp(String basePackage, String... edgePackages) {
		String[] edge = new String[edgePackages.length + 1];
		edge[0] = basePackage + ".web..";
		for (int i = 0; i < edgePackages.length; i++) {
			edge[i + 1] = basePackage + "." + edgePackages[i] + "..";
		}
		DescribedPredicate<JavaClass> http = JavaClass.Predicates
			.resideInAnyPackage("org.springframework.http..", "jakarta.servlet..", "io.kindling.support.web..")
			.and(DescribedPredicate.not(REFUSAL_VOCABULARY))
			.and(DescribedPredicate.not(NETWORKS));
		return noClasses().that()
			.resideInAPackage(basePackage + "..")
			.and()
			.resideOutsideOfPackages(edge)
			.and(are(DescribedPredicate.not(WEB_ADAPTERS)))
			.and(are(DescribedPredicate.not(REFUSAL_DECLARATIONS)))
			.should()
			.dependOnClassesThat(http)
			.because("feature code throws the refusals it declares; the web edge alone turns them into HTTP");
	}

	private static boolean isController(JavaClass type) {
		return type.isAnnotatedWith("org.springframework.web.bind.annotation.RestController");
	}

	// an SseEmitter is an open HTTP response: the class that keeps them is a web adapter
	private static boolean holdsEventStreams(JavaClass type) {
		return type.getFields()
			.stream()
			.anyMatch((field) -> field.getRawType()
				.getName()
				.startsWith("org.springframework.web.servlet.mvc.method.annotation.SseEmitter"))
				|| type.getDirectDependenciesFromSelf()
					.stream()
					.anyMatch((dependency) -> dependency.getTargetClass()
						.getName()
						.equals("org.springframework.web.servlet.mvc.method.annotation.SseEmitter"));
	}

}
