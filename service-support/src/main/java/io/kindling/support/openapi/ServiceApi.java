package io.kindling.support.openapi;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;

import org.springframework.web.method.HandlerMethod;

/**
 * What a service tells its OpenAPI description that the controllers do not: its title,
 * its security schemes, which of them each endpoint takes, and what its security refuses
 * there. One bean per service.
 */
public interface ServiceApi {

	Info info();

	/** The schemes, by the names {@link #security} uses. */
	Map<String, SecurityScheme> securitySchemes();

	/**
	 * The schemes that authenticate a call of this handler, any one of them; empty for an
	 * endpoint that anyone may call.
	 * @param path the handler's path, as mapped ({@code /api/admin/topics/{id}})
	 */
	List<String> security(HandlerMethod handler, String path);

	/**
	 * The slugs of the refusals the service's own security answers this endpoint with
	 * before any handler runs (a suspended account), besides the web edge's and the
	 * handler's {@code @Refuses}.
	 * @param path the handler's path, as mapped
	 */
	default Set<String> refusals(HandlerMethod handler, String path) {
		return Set.of();
	}

	/**
	 * The security scheme of an operators' API behind a bearer token set in
	 * {@code setting}, which refuses everyone while it is unset.
	 */
	static SecurityScheme adminToken(String setting) {
		return new SecurityScheme().type(SecurityScheme.Type.HTTP)
			.scheme("bearer")
			.description(setting + ": Authorization: Bearer <token>; while none is set the admin API refuses everyone");
	}

}
