package io.kindling.webclient.ops;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import io.kindling.support.web.BearerToken;
import io.kindling.webclient.WebClientProperties;

import org.springframework.context.annotation.Configuration;
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

	private final BearerToken token;

	OperatorsToken(WebClientProperties properties) {
		String send = "send the operators' token as 'Authorization: Bearer <token>'";
		this.token = new BearerToken(properties.adminToken(), new BearerToken.Refusals(
				"the console's API is off: no kindling.web-client.admin-token is set", send, send));
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
		this.token.require(request);
		return true;
	}

}
