package io.kindling.support.web;

import java.io.IOException;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The container's error page ({@code /error}): what a filter or the container refused
 * (Spring Security's firewall, an exception before Spring MVC) answers as a problem
 * detail too, in place of Spring Boot's own JSON or HTML.
 */
// not an endpoint of the API: the page the container forwards a failed request to
@Hidden
@RestController
class ProblemErrorController implements ErrorController {

	private final JsonMapper json;

	ProblemErrorController(JsonMapper json) {
		this.json = json;
	}

	@RequestMapping("${server.error.path:${error.path:/error}}")
	void error(HttpServletRequest request, HttpServletResponse response) throws IOException {
		if (response.isCommitted()) {
			return;
		}
		Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
		// asked for directly, not forwarded to by the container
		int status = (code instanceof Integer value) ? value : 404;
		Throwable failure = (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable thrown)
				? thrown : null;
		ProblemType type = ProblemType.forStatus(status);
		if (failure != null && BodySizeLimit.exceeded(failure)) {
			type = ProblemType.CONTENT_TOO_LARGE;
		}
		else if (failure != null && status >= 500 && StoreOutages.isOutage(failure)) {
			type = ProblemType.UNAVAILABLE;
			response.setHeader("Retry-After", "1");
		}
		response.resetBuffer();
		Problems.write(response, this.json, Problems.of(type, ContainerErrors.detail(type)));
	}

}
