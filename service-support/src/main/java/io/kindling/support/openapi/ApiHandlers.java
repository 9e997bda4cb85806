package io.kindling.support.openapi;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The handlers a service's description must hold: every one of ours, as
 * {@code "GET /api/topics"}, but those kept out of the API ({@link Hidden}). The
 * services' contract tests compare it with what {@code /v3/api-docs} serves.
 */
public final class ApiHandlers {

	private ApiHandlers() {
	}

	public static Set<String> of(RequestMappingHandlerMapping mapping) {
		Set<String> handlers = new TreeSet<>();
		mapping.getHandlerMethods().forEach((info, handler) -> {
			if (!handler.getBeanType().getName().startsWith("io.kindling.")
					|| AnnotatedElementUtils.hasAnnotation(handler.getBeanType(), Hidden.class)) {
				return;
			}
			Set<RequestMethod> methods = info.getMethodsCondition().getMethods();
			for (String path : info.getPatternValues()) {
				for (RequestMethod method : methods.isEmpty() ? List.of(RequestMethod.values()) : methods) {
					handlers.add(method.name() + " " + path);
				}
			}
		});
		return handlers;
	}

}
