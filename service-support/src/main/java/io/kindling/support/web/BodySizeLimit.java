package io.kindling.support.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses bodies over {@code kindling.web.max-body-size} with 413: at once when the
 * length is declared, while reading when it is chunked.
 */
final class BodySizeLimit extends OncePerRequestFilter {

	private final long maxBytes;

	private final JsonMapper json;

	BodySizeLimit(WebEdgeProperties properties, JsonMapper json) {
		this.maxBytes = properties.maxBodySize().toBytes();
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > this.maxBytes) {
			Problems.write(response, this.json, Problems.of(ProblemType.CONTENT_TOO_LARGE, detail(this.maxBytes)));
			return;
		}
		chain.doFilter(new Limited(request, this.maxBytes), response);
	}

	static String detail(long maxBytes) {
		return "the request body is larger than " + maxBytes + " bytes";
	}

	/** Whether reading the body failed because it grew past the limit. */
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

		// the container's reader would read past the counting stream
		@Override
		public BufferedReader getReader() throws IOException {
			String encoding = getCharacterEncoding();
			Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.UTF_8;
			return new BufferedReader(new InputStreamReader(getInputStream(), charset));
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
