package io.kindling.swipe.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.push.StreamTickets;
import io.kindling.support.openapi.ServiceApi;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;

/**
 * The swipe API's description: every endpoint takes the caller's bearer JWT; the event
 * stream also a stream ticket; the operators' API ({@code /api/admin/**}) the admin token
 * alone.
 */
@Component
class SwipeApi implements ServiceApi {

	private static final String JWT = "jwt";

	private static final String STREAM_TICKET = "stream_ticket";

	private static final String ADMIN_TOKEN = "admin_token";

	/** The one endpoint that opens with a ticket too (the security filters check it). */
	private static final String EVENTS = "/api/events";

	@Override
	public Info info() {
		return new Info().title("Kindling swipes (swipe-service)")
			.version("1")
			.description("Profiles, a deck of nearby candidates, likes, passes and super likes, mutual matches, "
					+ "boosts, a stream of the caller's match events, and the operators' moderation API. Every refusal is an "
					+ "application/problem+json whose type is listed in docs/errors.md.");
	}

	@Override
	public Map<String, SecurityScheme> securitySchemes() {
		Map<String, SecurityScheme> schemes = new LinkedHashMap<>();
		schemes.put(JWT, new SecurityScheme().type(SecurityScheme.Type.HTTP)
			.scheme("bearer")
			.bearerFormat("JWT")
			.description("A JWT from your auth service: HS256 with kindling.security.jwt-secret, or RS256/ES256 "
					+ "from its key set; exp required, sub the numeric user id"));
		schemes.put(STREAM_TICKET, StreamTickets.securityScheme("POST /api/events/tickets"));
		schemes.put(ADMIN_TOKEN, ServiceApi.adminToken("kindling.swipe.admin-token"));
		return schemes;
	}

	@Override
	public List<String> security(HandlerMethod handler, String path) {
		if (path.startsWith("/api/admin/")) {
			return List.of(ADMIN_TOKEN);
		}
		return EVENTS.equals(path) ? List.of(JWT, STREAM_TICKET) : List.of(JWT);
	}

	/**
	 * A banned user's every call is refused, once the JWT or the ticket said who calls.
	 */
	@Override
	public Set<String> refusals(HandlerMethod handler, String path) {
		return security(handler, path).contains(JWT) ? Set.of("account-suspended") : Set.of();
	}

}
