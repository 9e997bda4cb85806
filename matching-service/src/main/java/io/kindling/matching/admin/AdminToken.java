package io.kindling.matching.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.kindling.matching.MatchingProperties;
import io.kindling.support.web.ProblemType;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Guards {@code /api/admin/**}: the caller sends {@code kindling.matching.admin-token} as
 * {@code Authorization: Bearer <token>}. While no token is set the API answers 401 to
 * everyone, as the relay's does.
 */
@Configuration(proxyBeanMethods = false)
class AdminToken implements WebMvcConfigurer, HandlerInterceptor {

	private static final String BEARER = "Bearer ";

	private final byte[] token;

	AdminToken(MatchingProperties properties) {
		this.token = properties.adminToken().getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(this).addPathPatterns("/api/admin/**");
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		if (this.token.length == 0) {
			throw ProblemType.UNAUTHENTICATED.refused("the admin API is off: no kindling.matching.admin-token is set");
		}
		String header = request.getHeader(HttpHeaders.AUTHORIZATION);
		if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			throw ProblemType.UNAUTHENTICATED.refused("send the admin token as 'Authorization: Bearer <token>'");
		}
		byte[] presented = header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
		// constant time in the presented token: the answer must not tell how much of a
		// guess was right
		if (!MessageDigest.isEqual(this.token, presented)) {
			throw ProblemType.UNAUTHENTICATED.refused("the admin token is not right");
		}
		return true;
	}

}
