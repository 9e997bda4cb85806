package io.kindling.relay.parked;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import io.kindling.relay.RelayProperties;
import io.kindling.support.web.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.context.annotation.Configuration;
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

	private final byte[] token;

	AdminToken(RelayProperties properties) {
		this.token = properties.adminToken().getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(this).addPathPatterns("/api/outbox/**");
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (this.token.length == 0) {
			throw ProblemType.UNAUTHENTICATED.refused("the admin API is off: no kindling.relay.admin-token is set");
		}
		String presented = presented(request);
		if (presented == null) {
			throw ProblemType.UNAUTHENTICATED
				.refused("send the admin token as 'Authorization: Bearer <token>' or " + HEADER);
		}
		// Constant time: the comparison must not tell how much of a guess was right.
		if (!MessageDigest.isEqual(this.token, presented.getBytes(StandardCharsets.UTF_8))) {
			throw ProblemType.UNAUTHENTICATED.refused("the admin token is not right");
		}
		return true;
	}

	private static @Nullable String presented(HttpServletRequest request) {
		String header = request.getHeader(HEADER);
		if (header != null && !header.isBlank()) {
			return header.strip();
		}
		String authorization = request.getHeader("Authorization");
		if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
			return authorization.substring(7).strip();
		}
		return null;
	}

}
