package io.kindling.relay.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kindling.support.openapi.ServiceApi;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.stereotype.Component;
import org.springframework.web.method.HandlerMethod;

/** The relay's operators' API: every endpoint takes the admin token, either way. */
@Component
class RelayApi implements ServiceApi {

	private static final String ADMIN_TOKEN = "admin_token";

	private static final String ADMIN_TOKEN_HEADER = "admin_token_header";

	@Override
	public Info info() {
		return new Info().title("Kindling outbox relay (outbox-relay)")
			.version("1")
			.description("The rows the relay parked after failing to publish them to Kafka, and a retry for each. "
					+ "Every refusal is an application/problem+json whose type is listed in docs/errors.md.");
	}

	@Override
	public Map<String, SecurityScheme> securitySchemes() {
		Map<String, SecurityScheme> schemes = new LinkedHashMap<>();
		String token = "kindling.relay.admin-token (KINDLING_RELAY_ADMIN_TOKEN); while none is set the API "
				+ "refuses everyone";
		schemes.put(ADMIN_TOKEN,
				new SecurityScheme().type(SecurityScheme.Type.HTTP)
					.scheme("bearer")
					.description(token + ": Authorization: Bearer <token>"));
		schemes.put(ADMIN_TOKEN_HEADER,
				new SecurityScheme().type(SecurityScheme.Type.APIKEY)
					.in(SecurityScheme.In.HEADER)
					.name("X-Admin-Token")
					.description(token + ", in a header of its own"));
		return schemes;
	}

	@Override
	public List<String> security(HandlerMethod handler, String path) {
		return path.startsWith("/api/outbox/") ? List.of(ADMIN_TOKEN, ADMIN_TOKEN_HEADER) : List.of();
	}

}
