package io.kindling.matching.web;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kindling.matching.session.OrStreamTicket;
import io.kindling.matching.session.Session;
import io.kindling.push.StreamTickets;
import io.kindling.support.openapi.ServiceApi;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.utils.SpringDocUtils;

import org.springframework.core.MethodParameter;
import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;

/**
 * The rooms API's description: a session's bearer token on the rooms' endpoints (or a
 * stream ticket on the event stream), the admin token on {@code /api/admin/**}.
 */
@Component
class MatchingApi implements ServiceApi {

	private static final String SESSION = "session";

	private static final String STREAM_TICKET = "stream_ticket";

	private static final String ADMIN_TOKEN = "admin_token";

	MatchingApi() {
		// resolved from the Authorization header, which the security schemes describe
		SpringDocUtils.getConfig().addRequestWrapperToIgnore(Session.class);
	}

	@Override
	public Info info() {
		return new Info().title("Kindling rooms (matching-service)")
			.version("1")
			.description("Anonymous sessions wait in a topic's queue and are matched into rooms of two or three. "
					+ "Every refusal is an application/problem+json whose type is listed in docs/errors.md.");
	}

	@Override
	public Map<String, SecurityScheme> securitySchemes() {
		Map<String, SecurityScheme> schemes = new LinkedHashMap<>();
		schemes.put(SESSION,
				new SecurityScheme().type(SecurityScheme.Type.HTTP)
					.scheme("bearer")
					.description("A session's token, from POST /api/sessions: Authorization: Bearer <token>"));
		schemes.put(STREAM_TICKET, StreamTickets.securityScheme("POST /api/matching/events/tickets"));
		schemes.put(ADMIN_TOKEN, ServiceApi.adminToken("kindling.matching.admin-token"));
		return schemes;
	}

	@Override
	public List<String> security(HandlerMethod handler, String path) {
		if (path.startsWith("/api/admin/")) {
			return List.of(ADMIN_TOKEN);
		}
		return Arrays.stream(handler.getMethodParameters())
			.filter((parameter) -> parameter.getParameterType() == Session.class)
			.findFirst()
			.map(MatchingApi::sessionOrTicket)
			.orElse(List.of());
	}

	private static List<String> sessionOrTicket(MethodParameter session) {
		return session.hasParameterAnnotation(OrStreamTicket.class) ? List.of(SESSION, STREAM_TICKET)
				: List.of(SESSION);
	}

}
