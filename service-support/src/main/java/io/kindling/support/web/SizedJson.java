package io.kindling.support.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.ResolvableType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.http.server.ServletServerHttpResponse;

/**
 * JSON answers with their length. Spring MVC flushes an answer's body before the request
 * ends, and Tomcat sends a body flushed without a length in chunks: a small answer then
 * leaves in two socket writes, the second only for the closing empty chunk, and its
 * client reads twice. This writes the JSON to memory first and sends it with a
 * {@code Content-Length}, in one write with the headers. A stream's events (already
 * committed, or not a plain servlet answer) are written as they come.
 */
final class SizedJson extends JacksonJsonHttpMessageConverter {

	SizedJson(JsonMapper json) {
		super(json);
	}

	@Override
	protected void writeInternal(Object object, ResolvableType type, HttpOutputMessage output,
			@Nullable Map<String, Object> hints) throws IOException {
		if (!(output instanceof ServletServerHttpResponse answer) || answer.getServletResponse().isCommitted()) {
			super.writeInternal(object, type, output, hints);
			return;
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream(512);
		super.writeInternal(object, type, new InMemory(output.getHeaders(), body), hints);
		output.getHeaders().setContentLength(body.size());
		body.writeTo(output.getBody());
	}

	/** The answer's headers, and a body kept in memory. */
	private record InMemory(HttpHeaders headers, OutputStream body) implements HttpOutputMessage {

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public OutputStream getBody() {
			return this.body;
		}

	}

}
