package io.kindling.relay.parked;

import io.kindling.relay.RelayProperties;
import io.kindling.support.web.BearerToken;
import io.kindling.support.web.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Guards {@code /api/outbox/**}: the caller sends {@code kindling.relay.admin-token} as
 * {@code Authorization: Bearer <token>} or as {@code X-Admin-Token}. With no token
 * configured the API answers 401 to everyone.
 */
@Configuration(proxyBeanMethods = false)
class AdminToken implements WebMvcConfigurer, HandlerInterceptor {

	static final String HEADER = "X-Admin-Token";

	private final BearerToken token;

	AdminToken(RelayProperties properties) {
		this.token = new BearerToken(properties.adminToken(),
				new BearerToken.Refusals("the admin API is off: no kindling.relay.admin-token is set",
						"send the admin token as 'Authorization: Bearer <token>' or " + HEADER,
						"the admin token is not right"));
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(this).addPathPatterns("/api/outbox/**");
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		String refusal = this.token.refusalOf(presented(request));
		if (refusal != null) {
			throw ProblemType.UNAUTHENTICATED.refused(refusal);
		}
		return true;
	}

	private static @Nullable String presented(HttpServletRequest request) {
		String header = request.getHeader(HEADER);
		if (header != null && !header.isBlank()) {
			return header.strip();
		}
		return BearerToken.presented(request.getHeader(HttpHeaders.AUTHORIZATION));
	}

}
