package io.kindling.support.web;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.cors.DefaultCorsProcessor;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;

/**
 * CORS for every path, event streams included: pages of the origins in
 * {@code kindling.web.allowed-origins} may call the service from a browser, others may
 * not (with none listed, the same origin only). Preflights are answered here, before
 * authentication, which a preflight never carries. Tokens travel in headers, never in
 * cookies, so no credentials are allowed: any method and header are, and every response
 * header may be read.
 */
final class CrossOrigins {

	private CrossOrigins() {
	}

	static CorsFilter filter(List<String> allowedOrigins, JsonMapper json) {
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		if (!allowedOrigins.isEmpty()) {
			CorsConfiguration configuration = new CorsConfiguration();
			configuration.setAllowedOrigins(allowedOrigins);
			configuration.setAllowedMethods(List.of(CorsConfiguration.ALL));
			configuration.setAllowedHeaders(List.of(CorsConfiguration.ALL));
			configuration.setExposedHeaders(List.of(CorsConfiguration.ALL));
			configuration.setAllowCredentials(false);
			configuration.setMaxAge(Duration.ofMinutes(30));
			source.registerCorsConfiguration("/**", configuration);
		}
		CorsFilter filter = new CorsFilter(source);
		filter.setCorsProcessor(new ProblemRefusal(json));
		return filter;
	}

	/** A refused cross-origin request gets a problem detail, not Spring's plain text. */
	private static final class ProblemRefusal extends DefaultCorsProcessor {

		private final JsonMapper json;

		ProblemRefusal(JsonMapper json) {
			this.json = json;
		}

		/** With no origin allowed, a preflight is refused, not answered empty. */
		@Override
		public boolean processRequest(@Nullable CorsConfiguration configuration, HttpServletRequest request,
				HttpServletResponse response) throws IOException {
			if (configuration == null && CorsUtils.isPreFlightRequest(request)) {
				rejectRequest(new ServletServerHttpResponse(response));
				return false;
			}
			return super.processRequest(configuration, request, response);
		}

		@Override
		protected void rejectRequest(ServerHttpResponse response) throws IOException {
			response.setStatusCode(HttpStatus.FORBIDDEN);
			response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
			response.getBody()
				.write(this.json.writeValueAsBytes(Problems.of(ProblemType.ORIGIN_NOT_ALLOWED,
						"Pages of this origin may not call the service (kindling.web.allowed-origins).")));
			response.flush();
		}

	}

}
