package io.kindling.support.web;

import java.io.IOException;
import java.nio.charset.Charset;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A {@code Content-Type} no endpoint can take is refused with 415 before anything reads
 * the body: one that does not parse, a wildcard, a charset the JVM does not know, or
 * multipart (which a multipart parser would read past the body-size limit, or fail on
 * without a boundary).
 */
final class ContentTypeGate extends OncePerRequestFilter {

	private final JsonMapper json;

	ContentTypeGate(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String refusal = refusal(request.getContentType());
		if (refusal != null) {
			Problems.write(response, this.json, Problems.of(ProblemType.UNSUPPORTED_MEDIA_TYPE, refusal));
			return;
		}
		chain.doFilter(request, response);
	}

	static @Nullable String refusal(@Nullable String contentType) {
		if (contentType == null) {
			return null;
		}
		MediaType type;
		try {
			type = MediaType.parseMediaType(contentType);
		}
		catch (InvalidMediaTypeException ex) {
			return "the Content-Type does not parse; send application/json";
		}
		if (type.isWildcardType() || type.isWildcardSubtype()) {
			return "a Content-Type names one media type, not a wildcard; send application/json";
		}
		if ("multipart".equals(type.getType())) {
			return "no endpoint takes multipart bodies; send application/json";
		}
		String charset = type.getParameter("charset");
		if (charset != null && !supported(charset)) {
			return "unknown charset " + charset + "; send UTF-8";
		}
		return null;
	}

	private static boolean supported(String charset) {
		try {
			return Charset.isSupported(charset.replace("\"", ""));
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
