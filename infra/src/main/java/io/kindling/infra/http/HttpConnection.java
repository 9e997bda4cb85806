package io.kindling.infra.http;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One keep-alive HTTP/1.1 connection on a blocking socket. It writes a request exactly as
 * given and parses the answer (Content-Length, chunked, or until the server closes),
 * nothing else: the JDK's {@code HttpClient} spent more CPU per request than the service
 * under test on a 2-core machine, where a bench's client shares the cores with what it
 * measures, and it refuses some of the odd requests tests send on purpose. Not
 * thread-safe: one connection per thread at a time ({@link ServiceClient} pools them).
 */
public final class HttpConnection implements Closeable {

	private final String host;

	private final int port;

	private final int timeoutMillis;

	private final @Nullable String from;

	private @Nullable Socket socket;

	private @Nullable InputStream in;

	private @Nullable OutputStream out;

	public HttpConnection(String host, int port, Duration timeout) {
		this(host, port, timeout, null);
	}

	/**
	 * @param from the local address the connection is made from (any of 127.0.0.0/8 on
	 * the loopback), so that the server sees another client address; null for any
	 */
	public HttpConnection(String host, int port, Duration timeout, @Nullable String from) {
		this.host = host;
		this.port = port;
		this.timeoutMillis = Math.toIntExact(timeout.toMillis());
		this.from = from;
	}

	/** A status line and headers, with the body still to be read from {@code body}. */
	record Head(int status, Map<String, List<String>> headers, InputStream body) {

	}

	/**
	 * Sends one request and reads its whole answer; reconnects once if the server had
	 * closed the idle connection.
	 */
	public Response send(Request request) throws IOException {
		byte[] bytes = request.encode(this.host, this.port);
		boolean fresh = this.socket == null;
		try {
			return readWhole(exchange(bytes, request.method()));
		}
		catch (SocketTimeoutException ex) {
			// the server has the request and is slow: sending it again could do it twice
			close();
			throw ex;
		}
		catch (IOException ex) {
			close();
			if (fresh) {
				throw ex;
			}
			return readWhole(exchange(bytes, request.method()));
		}
	}

	/**
	 * Sends one request and returns as soon as the head has arrived, the body to be read
	 * as it comes (an event stream); the connection serves nothing else afterwards.
	 */
	Head open(Request request) throws IOException {
		return exchange(request.encode(this.host, this.port), request.method());
	}

	private Response readWhole(Head head) throws IOException {
		String body = new String(head.body().readAllBytes(), StandardCharsets.UTF_8);
		List<String> connection = head.headers().getOrDefault("connection", List.of());
		if (connection.stream().anyMatch("close"::equalsIgnoreCase) || head.body() instanceof UntilClosed) {
			close();
		}
		return new Response(head.status(), head.headers(), body);
	}

	private Head exchange(byte[] request, String method) throws IOException {
		if (this.socket == null) {
			Socket opened = new Socket();
			opened.setTcpNoDelay(true);
			if (this.from != null) {
				opened.bind(new InetSocketAddress(this.from, 0));
			}
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
		return read(input, method);
	}

	private static Head read(InputStream in, String method) throws IOException {
		while (true) {
			String statusLine = line(in);
			// "HTTP/1.1 200 OK"
			if (statusLine.length() < 12 || !statusLine.startsWith("HTTP/")) {
				throw new IOException("not an HTTP status line: " + statusLine);
			}
			int status = Integer.parseInt(statusLine.substring(9, 12));
			Map<String, List<String>> headers = new LinkedHashMap<>();
			for (String header = line(in); !header.isEmpty(); header = line(in)) {
				int colon = header.indexOf(':');
				if (colon > 0) {
					headers
						.computeIfAbsent(header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
								(name) -> new ArrayList<>())
						.add(header.substring(colon + 1).trim());
				}
			}
			if (status >= 100 && status < 200) {
				// an interim answer (100 Continue): the real one follows
				continue;
			}
			return new Head(status, headers, body(in, method, status, headers));
		}
	}

	private static InputStream body(InputStream in, String method, int status, Map<String, List<String>> headers) {
		if (method.equalsIgnoreCase("HEAD") || status == 204 || status == 304) {
			return InputStream.nullInputStream();
		}
		List<String> encoding = headers.getOrDefault("transfer-encoding", List.of());
		if (encoding.stream().anyMatch((value) -> value.toLowerCase(Locale.ROOT).contains("chunked"))) {
			return new Chunked(in);
		}
		List<String> length = headers.get("content-length");
		if (length != null && !length.isEmpty()) {
			return new Limited(in, Long.parseLong(length.get(0)));
		}
		return new UntilClosed(in);
	}

	static String line(InputStream in) throws IOException {
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

	/** A body of a known length; closing it leaves the connection open. */
	private static final class Limited extends FilterInputStream {

		private long left;

		Limited(InputStream in, long length) {
			super(in);
			this.left = length;
		}

		@Override
		public int read() throws IOException {
			if (this.left <= 0) {
				return -1;
			}
			int b = this.in.read();
			if (b < 0) {
				throw new EOFException("the body ended early");
			}
			this.left--;
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			if (this.left <= 0) {
				return -1;
			}
			int read = this.in.read(buffer, offset, (int) Math.min(length, this.left));
			if (read < 0) {
				throw new EOFException("the body ended early");
			}
			this.left -= read;
			return read;
		}

		@Override
		public void close() {
			// the connection stays open for the next request
		}

	}

	/** A chunked body, decoded; ends after the last chunk and its trailers. */
	private static final class Chunked extends FilterInputStream {

		private long left;

		private boolean ended;

		Chunked(InputStream in) {
			super(in);
		}

		@Override
		public int read() throws IOException {
			byte[] one = new byte[1];
			return (read(one, 0, 1) < 0) ? -1 : (one[0] & 0xff);
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			if (this.ended) {
				return -1;
			}
			if (this.left == 0) {
				String size = line(this.in);
				int extension = size.indexOf(';');
				this.left = Long.parseLong(((extension >= 0) ? size.substring(0, extension) : size).trim(), 16);
				if (this.left == 0) {
					// trailers end with an empty line
					while (!line(this.in).isEmpty()) {
						// no trailers are used
					}
					this.ended = true;
					return -1;
				}
			}
			int read = this.in.read(buffer, offset, (int) Math.min(length, this.left));
			if (read < 0) {
				throw new EOFException("the body ended inside a chunk");
			}
			this.left -= read;
			if (this.left == 0) {
				// the CRLF after the chunk's data
				line(this.in);
			}
			return read;
		}

		@Override
		public void close() {
			// the connection stays open for the next request
		}

	}

	/** A body without a length: it ends when the server closes the connection. */
	private static final class UntilClosed extends FilterInputStream {

		UntilClosed(InputStream in) {
			super(in);
		}

	}

}
