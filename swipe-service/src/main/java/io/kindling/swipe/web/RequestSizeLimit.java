package io.kindling.swipe.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** API bodies are small: a huge one is refused before anything parses it. */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class RequestSizeLimit extends OncePerRequestFilter {

	static final long MAX_BODY_BYTES = 64 * 1024;

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > MAX_BODY_BYTES) {
			response.setStatus(413);
			response.setCharacterEncoding("UTF-8");
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.getWriter()
				.write("{\"type\":\"https://kindling.io/problems/content-too-large\",\"title\":\"Content Too Large\",\"status\":413,"
						+ "\"detail\":\"Request bodies are at most " + MAX_BODY_BYTES + " bytes.\"}");
			return;
		}
		chain.doFilter(request, response);
	}

}
