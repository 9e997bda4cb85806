package io.kindling.support.web;

import java.io.IOException;
import java.util.Locale;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * No endpoint takes a multipart body: refused before a multipart parser reads it (past
 * the body-size limit, or failing on a missing boundary).
 */
final class MultipartRefusal extends OncePerRequestFilter {

	private final JsonMapper json;

	MultipartRefusal(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String contentType = request.getContentType();
		if (contentType != null && contentType.strip().toLowerCase(Locale.ROOT).startsWith("multipart/")) {
			Problems.write(response, this.json,
					Problems.of(ProblemType.UNSUPPORTED_MEDIA_TYPE, "no endpoint takes multipart bodies; send JSON"));
			return;
		}
		chain.doFilter(request, response);
	}

}
