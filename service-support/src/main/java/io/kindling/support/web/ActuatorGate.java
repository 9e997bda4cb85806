package io.kindling.support.web;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
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

	private static final String BEARER = "Bearer ";

	private final byte[] token;

	private final JsonMapper json;

	ActuatorGate(String token, JsonMapper json) {
		this.token = token.getBytes(StandardCharsets.UTF_8);
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
		String refusal = refusal(request.getHeader(HttpHeaders.AUTHORIZATION));
		if (refusal != null) {
			Problems.write(response, this.json, ProblemType.UNAUTHENTICATED.refused(refusal));
			return;
		}
		chain.doFilter(request, response);
	}

	private @Nullable String refusal(@Nullable String authorization) {
		if (this.token.length == 0) {
			return "the actuator's endpoints other than health are off: no kindling.web.metrics-token is set";
		}
		if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return "send the metrics token as 'Authorization: Bearer <token>'";
		}
		byte[] presented = authorization.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
		// constant time in the presented token: the answer must not tell how much of a
		// guess was right
		return MessageDigest.isEqual(this.token, presented) ? null : "the metrics token is not right";
	}

}
