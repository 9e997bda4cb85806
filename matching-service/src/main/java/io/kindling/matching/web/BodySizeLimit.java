package io.kindling.matching.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import io.kindling.matching.MatchingProperties;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses bodies over {@code kindling.matching.max-body-size} with 413: at once when the
 * length is declared, while reading when it is chunked.
 */
@Component
class BodySizeLimit extends OncePerRequestFilter {

	private final long maxBytes;

	private final JsonMapper json;

	BodySizeLimit(MatchingProperties properties, JsonMapper json) {
		this.maxBytes = properties.maxBodySize().toBytes();
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > this.maxBytes) {
			response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
			response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
			response.getWriter()
				.write(this.json
					.writeValueAsString(ProblemDetails.problem(HttpStatus.CONTENT_TOO_LARGE, "body-too-large",
							"Request body too large", "the request body is larger than " + this.maxBytes + " bytes")));
			return;
		}
		chain.doFilter(new Limited(request, this.maxBytes), response);
	}

	static boolean exceeded(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof TooLarge) {
				return true;
			}
		}
		return false;
	}

	static final class TooLarge extends IOException {

		TooLarge() {
			super("request body too large");
		}

	}

	private static final class Limited extends HttpServletRequestWrapper {

		private final long maxBytes;

		Limited(HttpServletRequest request, long maxBytes) {
			super(request);
			this.maxBytes = maxBytes;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			ServletInputStream in = super.getInputStream();
			return new ServletInputStream() {

				private long read;

				@Override
				public int read() throws IOException {
					int b = in.read();
					if (b >= 0) {
						count(1);
					}
					return b;
				}

				@Override
				public int read(byte[] buffer, int offset, int length) throws IOException {
					int n = in.read(buffer, offset, length);
					if (n > 0) {
						count(n);
					}
					return n;
				}

				private void count(int n) throws TooLarge {
					this.read += n;
					if (this.read > Limited.this.maxBytes) {
						throw new TooLarge();
					}
				}

				@Override
				public boolean isFinished() {
					return in.isFinished();
				}

				@Override
				public boolean isReady() {
					return in.isReady();
				}

				@Override
				public void setReadListener(ReadListener listener) {
					in.setReadListener(listener);
				}

			};
		}

	}

}
