package io.kindling.swipe.security;

import java.time.Clock;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;

import io.kindling.push.StreamLimits;
import io.kindling.push.StreamTickets;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Problems;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.security.oauth2.server.resource.autoconfigure.OAuth2ResourceServerProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.util.StringUtils;

/**
 * Every API call needs a Bearer JWT: HS256 with the shared secret, or RS256/ES256 from
 * the auth service's key set; {@code exp} required, {@code sub} a numeric user id. The
 * event stream also opens with a stream ticket; a banned user's calls are refused. The
 * operators' API opens with the admin token instead. The actuator is the web edge's to
 * guard (health open, the rest behind the metrics token, checked before this chain), and
 * the API's description and Swagger UI are open to anyone.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

	private static final BearerTokenAuthenticationEntryPoint BEARER = new BearerTokenAuthenticationEntryPoint();

	/**
	 * The actuator is the web edge's to guard, before this: health open, the rest behind
	 * the metrics token, which is no JWT and must not be read as one.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
		return stateless(http.securityMatcher("/actuator/**"))
			.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
			.build();
	}

	/**
	 * The operators' API: the admin token alone opens it ({@link AdminTokenFilter}); a
	 * user's JWT opens nothing here.
	 */
	@Bean
	@Order(1)
	SecurityFilterChain adminSecurity(HttpSecurity http, JsonMapper json, OperatorProperties operators)
			throws Exception {
		AuthenticationEntryPoint unauthorized = unauthorized(json, "The admin token is required.");
		return stateless(http.securityMatcher("/api/admin/**"))
			.authorizeHttpRequests((requests) -> requests.requestMatchers(HttpMethod.OPTIONS, "/**")
				.permitAll()
				.anyRequest()
				.authenticated())
			.addFilterBefore(new AdminTokenFilter(operators.adminToken(), unauthorized), AuthorizationFilter.class)
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(unauthorized))
			.build();
	}

	@Bean
	SecurityFilterChain apiSecurity(HttpSecurity http, JsonMapper json, StreamTickets tickets, Suspensions suspensions)
			throws Exception {
		AuthenticationEntryPoint unauthorized = unauthorized(json,
				"A valid bearer token (a signed JWT with sub and exp) is required.");
		AuthenticationEntryPoint ticketRefused = unauthorized(json,
				"The stream ticket is unknown, used or expired: get a new one from POST /api/events/tickets.");
		return stateless(http).authorizeHttpRequests((requests) -> requests.requestMatchers("/error")
			.permitAll()
			// the API's description and Swagger UI: what anyone needs to call it
			.requestMatchers(HttpMethod.GET, "/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**")
			.permitAll()
			.requestMatchers(HttpMethod.OPTIONS, "/**")
			.permitAll()
			.anyRequest()
			.authenticated())
			.addFilterBefore(new StreamTicketFilter(tickets, ticketRefused), BearerTokenAuthenticationFilter.class)
			// once the JWT or the ticket said who calls
			.addFilterAfter(new SuspendedAccountFilter(suspensions, json), BearerTokenAuthenticationFilter.class)
			.oauth2ResourceServer((oauth2) -> oauth2.bearerTokenResolver(new HeaderBearerTokens())
				.jwt(Customizer.withDefaults())
				.authenticationEntryPoint(unauthorized))
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(unauthorized))
			.build();
	}

	/**
	 * A stateless token API: no logout, no saved request to return to, no servlet login
	 * API; each would be one more filter on every call.
	 */
	private static HttpSecurity stateless(HttpSecurity http) throws Exception {
		return http.csrf((csrf) -> csrf.disable())
			.logout((logout) -> logout.disable())
			.requestCache((cache) -> cache.disable())
			.servletApi((servletApi) -> servletApi.disable())
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
	}

	/**
	 * Stream tickets, for a browser's {@code EventSource}: issued by
	 * {@code POST /api/events/tickets}, redeemed by {@link StreamTicketFilter}.
	 */
	@Bean
	StreamTickets streamTickets(StringRedisTemplate redis, Clock clock, StreamLimits limits) {
		return new StreamTickets(redis, clock, limits, "stream_ticket:");
	}

	/**
	 * HS256 with the shared secret; or, when Spring Boot's
	 * {@code spring.security.oauth2.resourceserver.jwt.jwk-set-uri} or {@code issuer-uri}
	 * is set, RS256 and ES256 against the auth service's key set. Either way {@code exp}
	 * and a numeric {@code sub} are required, and a verified token is remembered.
	 */
	@Bean
	JwtDecoder jwtDecoder(SecurityProperties properties, OAuth2ResourceServerProperties resourceServer) {
		String jwkSetUri = resourceServer.getJwt().getJwkSetUri();
		String issuer = resourceServer.getJwt().getIssuerUri();
		NimbusJwtDecoder decoder;
		OAuth2TokenValidator<Jwt> standard;
		if (StringUtils.hasText(jwkSetUri) || StringUtils.hasText(issuer)) {
			decoder = (StringUtils.hasText(jwkSetUri) ? NimbusJwtDecoder.withJwkSetUri(jwkSetUri)
					: NimbusJwtDecoder.withIssuerLocation(issuer))
				.jwsAlgorithms((algorithms) -> {
					algorithms.clear();
					algorithms.add(SignatureAlgorithm.RS256);
					algorithms.add(SignatureAlgorithm.ES256);
				})
				.build();
			standard = StringUtils.hasText(issuer) ? JwtValidators.createDefaultWithIssuer(issuer)
					: JwtValidators.createDefault();
		}
		else {
			decoder = NimbusJwtDecoder.withSecretKey(new SecretKeySpec(properties.keyBytes(), "HmacSHA256"))
				.macAlgorithm(MacAlgorithm.HS256)
				.build();
			standard = JwtValidators.createDefault();
		}
		OAuth2TokenValidator<Jwt> validator = new DelegatingOAuth2TokenValidator<>(standard, expiryRequired(),
				numericSubject());
		decoder.setJwtValidator(validator);
		return new RememberingJwtDecoder(decoder, validator, properties.rememberedTokens());
	}

	/**
	 * The firewall's header rules as a loop instead of two regular expressions run over
	 * every header of every request: see {@link HeaderRules}.
	 */
	@Bean
	WebSecurityCustomizer headerRulesWithoutPatterns() {
		StrictHttpFirewall firewall = new StrictHttpFirewall();
		firewall.setAllowedHeaderNames(HeaderRules::allowedName);
		firewall.setAllowedHeaderValues(HeaderRules::allowedValue);
		return (web) -> web.httpFirewall(firewall);
	}

	/**
	 * No observation per security filter: wrapping each of the chain's filters in its own
	 * observation cost more CPU than the JWT check itself. Requests are still timed whole
	 * ({@code http.server.requests}).
	 */
	@Bean
	SecurityObservationSettings securityObservations() {
		return SecurityObservationSettings.noObservations();
	}

	/**
	 * 401 with the RFC 6750 {@code WWW-Authenticate} header and, like every other error
	 * of the service, a problem detail body.
	 */
	private static AuthenticationEntryPoint unauthorized(JsonMapper json, String detail) {
		return (request, response, failure) -> {
			BEARER.commence(request, response, failure);
			Problems.write(response, json, Problems.of(ProblemType.UNAUTHENTICATED, detail));
		};
	}

	private static OAuth2TokenValidator<Jwt> expiryRequired() {
		return (jwt) -> (jwt.getExpiresAt() != null) ? OAuth2TokenValidatorResult.success()
				: OAuth2TokenValidatorResult.failure(new OAuth2Error("invalid_token", "exp is required", null));
	}

	private static OAuth2TokenValidator<Jwt> numericSubject() {
		// compiled once: String.matches compiles its pattern on every call, and this runs
		// on every request, remembered token or not
		Pattern userId = Pattern.compile("[1-9][0-9]{0,18}");
		return (jwt) -> (jwt.getSubject() != null && userId.matcher(jwt.getSubject()).matches())
				? OAuth2TokenValidatorResult.success()
				: OAuth2TokenValidatorResult.failure(new OAuth2Error("invalid_token", "sub must be a user id", null));
	}

}
