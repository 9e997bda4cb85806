package io.kindling.support.web;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A header value that the service reads must be printable ASCII (space to {@code ~}); one
 * that is not is refused with {@code 400 bad-request} when it is read, by a handler, a
 * converter or a later filter, never a 500. Headers nobody reads are not looked at. HTTP
 * header values are ASCII in practice (RFC 9110 §5.5): anything else here is an encoding
 * accident or a probe.
 */
final class PrintableHeaders extends OncePerRequestFilter {

	private final JsonMapper json;

	PrintableHeaders(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		try {
			chain.doFilter(new Checked(request), response);
		}
		catch (Refused ex) {
			// read by a later filter, outside the handlers' error mapping
			if (response.isCommitted()) {
				throw ex;
			}
			refuse(response, ex);
		}
		catch (ServletException ex) {
			if (!(ex.getRootCause() instanceof Refused refused) || response.isCommitted()) {
				throw ex;
			}
			refuse(response, refused);
		}
	}

	private void refuse(HttpServletResponse response, Refused refused) throws IOException {
		// the headers set so far (CORS) stay
		response.resetBuffer();
		Problems.write(response, this.json, refused);
	}

	static boolean printable(String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c > 0x7E) {
				return false;
			}
		}
		return true;
	}

	private static final class Checked extends HttpServletRequestWrapper {

		Checked(HttpServletRequest request) {
			super(request);
		}

		@Override
		public @Nullable String getHeader(String name) {
			return checked(name, super.getHeader(name));
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			List<String> values = Collections.list(super.getHeaders(name));
			values.forEach((value) -> checked(name, value));
			return Collections.enumeration(values);
		}

		private static @Nullable String checked(String name, @Nullable String value) {
			if (value != null && !printable(value)) {
				throw ProblemType.BAD_REQUEST
					.refused("the header " + name + " holds a character that is not printable ASCII");
			}
			return value;
		}

	}

}
