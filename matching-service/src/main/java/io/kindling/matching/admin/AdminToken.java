package io.kindling.matching.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.kindling.matching.MatchingProperties;
import io.kindling.support.web.BearerToken;

import org.springframework.context.annotation.Configuration;
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

	private final BearerToken token;

	AdminToken(MatchingProperties properties) {
		this.token = new BearerToken(properties.adminToken(),
				new BearerToken.Refusals("the admin API is off: no kindling.matching.admin-token is set",
						"send the admin token as 'Authorization: Bearer <token>'", "the admin token is not right"));
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(this).addPathPatterns("/api/admin/**");
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		this.token.require(request);
		return true;
	}

}
