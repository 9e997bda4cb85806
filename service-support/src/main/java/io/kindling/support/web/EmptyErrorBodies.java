package io.kindling.support.web;

import java.io.IOException;
import java.io.PrintWriter;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * An error status set with no body (an actuator endpoint's bare 404, a
 * {@code ResponseEntity} without one) gets the problem detail of its status, so no 4xx
 * leaves without one.
 */
final class EmptyErrorBodies extends OncePerRequestFilter {

	private final JsonMapper json;

	EmptyErrorBodies(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		BodyWatch watched = new BodyWatch(response);
		chain.doFilter(request, watched);
		if (!request.isAsyncStarted() && !watched.bodyStarted && !response.isCommitted()
				&& response.getStatus() >= 400) {
			ProblemType type = ProblemType.forStatus(response.getStatus());
			Problems.write(response, this.json, Problems.of(type, ContainerErrors.detail(type)));
		}
	}

	private static final class BodyWatch extends HttpServletResponseWrapper {

		private boolean bodyStarted;

		BodyWatch(HttpServletResponse response) {
			super(response);
		}

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			this.bodyStarted = true;
			return super.getOutputStream();
		}

		@Override
		public PrintWriter getWriter() throws IOException {
			this.bodyStarted = true;
			return super.getWriter();
		}

		@Override
		public void sendError(int sc) throws IOException {
			// the container's error page answers these
			this.bodyStarted = true;
			super.sendError(sc);
		}

		@Override
		public void sendError(int sc, String msg) throws IOException {
			this.bodyStarted = true;
			super.sendError(sc, msg);
		}

	}

}
