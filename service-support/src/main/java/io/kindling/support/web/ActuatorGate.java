package io.kindling.support.web;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code /actuator/health} and its probes ({@code liveness}, {@code readiness}) are open
 * to anyone, as load balancers need them, and say only UP or DOWN. Every other actuator
 * path ({@code prometheus}, {@code metrics}, {@code info}, a health group or component
 * with its details) answers only to
 * {@code Authorization: Bearer <kindling.web.metrics-token>}; with no token set, to
 * nobody.
 */
final class ActuatorGate extends OncePerRequestFilter {

	private static final String ACTUATOR = "/actuator";

	private static final Set<String> OPEN = Set.of(ACTUATOR + "/health", ACTUATOR + "/health/liveness",
			ACTUATOR + "/health/readiness");

	private final BearerToken token;

	private final JsonMapper json;

	ActuatorGate(String token, JsonMapper json) {
		this.token = new BearerToken(token,
				new BearerToken.Refusals(
						"the actuator's endpoints other than health are off: no kindling.web.metrics-token is set",
						"send the metrics token as 'Authorization: Bearer <token>'", "the metrics token is not right"));
		this.json = json;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		// the path as the dispatcher maps it: decoded and normalised, so no spelling of
		// the path slips past
		String path = request.getServletPath() + ((request.getPathInfo() != null) ? request.getPathInfo() : "");
		boolean actuator = path.equals(ACTUATOR) || path.startsWith(ACTUATOR + "/");
		return !actuator || OPEN.contains(path);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String refusal = this.token.refusal(request);
		if (refusal != null) {
			Problems.write(response, this.json, ProblemType.UNAUTHENTICATED.refused(refusal));
			return;
		}
		chain.doFilter(request, response);
	}

}
