package io.kindling.swipe.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** API bodies are small: a huge one is refused before anything parses it. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class RequestSizeLimit extends OncePerRequestFilter {

	static final long MAX_BODY_BYTES = 64 * 1024;

	private final JsonMapper json;

	RequestSizeLimit(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > MAX_BODY_BYTES) {
			Problems.write(response, this.json, Problems.of(HttpStatus.CONTENT_TOO_LARGE, "Content Too Large",
					"Request bodies are at most " + MAX_BODY_BYTES + " bytes."));
			return;
		}
		chain.doFilter(request, response);
	}

}
