package io.kindling.infra.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * One HTTP request as it goes on the wire: the method and path are sent exactly as given
 * (so a test can send {@code %00} or an unknown method), headers in order and repeatable.
 *
 * @param method the request method
 * @param path the request target, sent as is
 * @param headers name and value pairs, in order
 * @param body the body, or none
 * @param chunked whether the body goes as chunks (no {@code Content-Length})
 */
public record Request(String method, String path, List<Header> headers, byte @Nullable [] body, boolean chunked) {

	public Request {
		headers = List.copyOf(headers);
	}

	/** A header line. */
	public record Header(String name, String value) {

	}

	public static Request of(String method, String path) {
		return new Request(method, path, List.of(), null, false);
	}

	public static Request get(String path) {
		return of("GET", path);
	}

	/** Adds {@code Authorization: Bearer <token>}; none when the token is null. */
	public Request bearer(@Nullable String token) {
		return (token != null) ? header("Authorization", "Bearer " + token) : this;
	}

	public Request header(String name, String value) {
		List<Header> more = new ArrayList<>(this.headers);
		more.add(new Header(name, value));
		return new Request(this.method, this.path, more, this.body, this.chunked);
	}

	/**
	 * The body as UTF-8, with {@code Content-Type: application/json} unless one is set.
	 */
	public Request json(String json) {
		Request typed = hasHeader("Content-Type") ? this : header("Content-Type", "application/json");
		return typed.body(json.getBytes(StandardCharsets.UTF_8));
	}

	public Request body(byte[] bytes) {
		return new Request(this.method, this.path, this.headers, bytes, this.chunked);
	}

	/** Sends the body in chunks, as a client that does not know its length does. */
	public Request inChunks() {
		return new Request(this.method, this.path, this.headers, this.body, true);
	}

	public boolean hasHeader(String name) {
		return this.headers.stream().anyMatch((header) -> header.name().equalsIgnoreCase(name));
	}

	/** The request line, headers and body as bytes. */
	byte[] encode(String host, int port) {
		StringBuilder head = new StringBuilder(256).append(this.method)
			.append(' ')
			.append(this.path)
			.append(" HTTP/1.1\r\n");
		if (!hasHeader("Host")) {
			head.append("Host: ").append(host).append(':').append(port).append("\r\n");
		}
		for (Header header : this.headers) {
			head.append(header.name()).append(": ").append(header.value()).append("\r\n");
		}
		byte[] content = (this.body != null) ? this.body : new byte[0];
		if (this.chunked) {
			head.append("Transfer-Encoding: chunked\r\n");
		}
		else if (this.body != null && !hasHeader("Content-Length")) {
			head.append("Content-Length: ").append(content.length).append("\r\n");
		}
		head.append("\r\n");
		byte[] start = head.toString().getBytes(StandardCharsets.ISO_8859_1);
		if (!this.chunked) {
			return concat(start, content);
		}
		// chunks of 8 KiB, then the last, empty one
		byte[] encoded = start;
		for (int offset = 0; offset < content.length; offset += 8192) {
			int length = Math.min(8192, content.length - offset);
			byte[] size = (Integer.toHexString(length).toUpperCase(Locale.ROOT) + "\r\n")
				.getBytes(StandardCharsets.ISO_8859_1);
			byte[] chunk = new byte[length + 2];
			System.arraycopy(content, offset, chunk, 0, length);
			chunk[length] = '\r';
			chunk[length + 1] = '\n';
			encoded = concat(concat(encoded, size), chunk);
		}
		return concat(encoded, "0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
	}

	private static byte[] concat(byte[] first, byte[] second) {
		byte[] both = new byte[first.length + second.length];
		System.arraycopy(first, 0, both, 0, first.length);
		System.arraycopy(second, 0, both, first.length, second.length);
		return both;
	}

}
