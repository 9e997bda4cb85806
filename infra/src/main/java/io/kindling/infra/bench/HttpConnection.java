package io.kindling.infra.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One keep-alive HTTP/1.1 connection on a blocking socket, for load generators. The JDK's
 * {@code HttpClient} spent more CPU per request than the service under test on this
 * 2-core machine, and a bench's client shares the cores with what it measures; this one
 * writes a request and parses the answer (Content-Length or chunked), nothing else. Not
 * thread-safe: one connection per client thread.
 */
public final class HttpConnection implements Closeable {

	private final String host;

	private final int port;

	private final int timeoutMillis;

	private @Nullable Socket socket;

	private @Nullable InputStream in;

	private @Nullable OutputStream out;

	public HttpConnection(String host, int port, int timeoutMillis) {
		this.host = host;
		this.port = port;
		this.timeoutMillis = timeoutMillis;
	}

	/** An answer: status, headers with lower-case names, and the body as text. */
	public record Response(int status, Map<String, String> headers, String body) {

		public @Nullable String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

	}

	/**
	 * Sends one request and reads its answer; reconnects once if the server had closed
	 * the idle connection.
	 */
	public Response send(String method, String path, Map<String, String> headers, @Nullable String body)
			throws IOException {
		byte[] request = request(method, path, headers, body);
		boolean fresh = this.socket == null;
		try {
			return exchange(request);
		}
		catch (IOException ex) {
			close();
			if (fresh) {
				throw ex;
			}
			return exchange(request);
		}
	}

	private Response exchange(byte[] request) throws IOException {
		if (this.socket == null) {
			Socket opened = new Socket();
			opened.setTcpNoDelay(true);
			opened.connect(new InetSocketAddress(this.host, this.port), this.timeoutMillis);
			opened.setSoTimeout(this.timeoutMillis);
			this.socket = opened;
			this.in = new BufferedInputStream(opened.getInputStream(), 16 * 1024);
			this.out = opened.getOutputStream();
		}
		OutputStream output = this.out;
		InputStream input = this.in;
		if (output == null || input == null) {
			throw new IOException("not connected");
		}
		output.write(request);
		output.flush();
		Response response = read(input);
		if ("close".equalsIgnoreCase(response.header("connection"))) {
			close();
		}
		return response;
	}

	private byte[] request(String method, String path, Map<String, String> headers, @Nullable String body) {
		byte[] content = (body != null) ? body.getBytes(StandardCharsets.UTF_8) : new byte[0];
		StringBuilder head = new StringBuilder(256).append(method)
			.append(' ')
			.append(path)
			.append(" HTTP/1.1\r\nHost: ")
			.append(this.host)
			.append(':')
			.append(this.port)
			.append("\r\n");
		headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		if (body != null) {
			head.append("Content-Length: ").append(content.length).append("\r\n");
		}
		head.append("\r\n");
		byte[] start = head.toString().getBytes(StandardCharsets.ISO_8859_1);
		byte[] request = new byte[start.length + content.length];
		System.arraycopy(start, 0, request, 0, start.length);
		System.arraycopy(content, 0, request, start.length, content.length);
		return request;
	}

	private static Response read(InputStream in) throws IOException {
		String statusLine = line(in);
		// "HTTP/1.1 200 OK"
		int status = Integer.parseInt(statusLine.substring(9, 12));
		Map<String, String> headers = new LinkedHashMap<>();
		for (String header = line(in); !header.isEmpty(); header = line(in)) {
			int colon = header.indexOf(':');
			if (colon > 0) {
				headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
						header.substring(colon + 1).trim());
			}
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		String length = headers.get("content-length");
		if (length != null) {
			copy(in, body, Integer.parseInt(length));
		}
		else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
			for (int size = Integer.parseInt(chunkSize(line(in)), 16); size > 0; size = Integer
				.parseInt(chunkSize(line(in)), 16)) {
				copy(in, body, size);
				line(in);
			}
			// trailers end with an empty line
			while (!line(in).isEmpty()) {
				// no trailers are used
			}
		}
		return new Response(status, headers, body.toString(StandardCharsets.UTF_8));
	}

	private static String chunkSize(String line) {
		int extension = line.indexOf(';');
		return (extension >= 0) ? line.substring(0, extension).trim() : line.trim();
	}

	private static void copy(InputStream in, ByteArrayOutputStream body, int length) throws IOException {
		byte[] buffer = in.readNBytes(length);
		if (buffer.length < length) {
			throw new EOFException("the body ended early");
		}
		body.write(buffer);
	}

	private static String line(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder(64);
		for (int b = in.read(); b != '\n'; b = in.read()) {
			if (b < 0) {
				throw new EOFException("connection closed");
			}
			if (b != '\r') {
				line.append((char) b);
			}
		}
		return line.toString();
	}

	@Override
	public void close() {
		Socket open = this.socket;
		this.socket = null;
		this.in = null;
		this.out = null;
		if (open != null) {
			try {
				open.close();
			}
			catch (IOException ex) {
				// closing a connection that is done with
			}
		}
	}

}
