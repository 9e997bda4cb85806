package io.kindling.webclient.ops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import io.kindling.support.web.ProblemType;
import io.kindling.webclient.WebClientProperties;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The console's API ({@code /ops/api/**}) takes the operators' token as
 * {@code Authorization: Bearer <token>}, compared in constant time; while
 * {@code kindling.web-client.admin-token} is empty it answers 401 to everyone. The page
 * itself ({@code /ops}) is open: it holds nothing until the token opens its calls.
 */
@Configuration(proxyBeanMethods = false)
class OperatorsToken implements WebMvcConfigurer, HandlerInterceptor {

	private static final String BEARER = "Bearer ";

	private final byte[] token;

	OperatorsToken(WebClientProperties properties) {
		this.token = properties.adminToken().getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(this).addPathPatterns("/ops/api/**");
	}

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addViewController("/ops").setViewName("forward:/ops.html");
	}

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		String header = request.getHeader(HttpHeaders.AUTHORIZATION);
		if (this.token.length == 0) {
			throw ProblemType.UNAUTHENTICATED
				.refused("the console's API is off: no kindling.web-client.admin-token is set");
		}
		if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length()) || !MessageDigest
			.isEqual(this.token, header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8))) {
			throw ProblemType.UNAUTHENTICATED.refused("send the operators' token as 'Authorization: Bearer <token>'");
		}
		return true;
	}

}
