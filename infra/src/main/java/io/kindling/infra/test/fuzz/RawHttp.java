package io.kindling.infra.test.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * HTTP/1.1 over a plain socket: sends the bytes as given (a {@code %00} in the path, a
 * control character in a header, a broken chunk) where an HTTP client would refuse to,
 * and reads one whole response.
 */
public final class RawHttp {

	private RawHttp() {
	}

	/** A whole response; header names in lower case. */
	public record Response(int status, Map<String, String> headers, String body) {

		public @Nullable String header(String name) {
			return this.headers.get(name.toLowerCase(Locale.ROOT));
		}

	}

	/**
	 * Sends {@code request} and reads the answer until the server closes (the request
	 * should say {@code Connection: close}).
	 * @throws IOException when the connection drops before a whole response came
	 */
	public static Response exchange(String host, int port, byte[] request, int timeoutMillis) throws IOException {
		return exchange(null, host, port, request, timeoutMillis);
	}

	/**
	 * The same from a chosen local address ({@code 127.0.0.2}: another loopback address,
	 * as a proxy on the same host would have).
	 */
	public static Response exchange(@Nullable String localAddress, String host, int port, byte[] request,
			int timeoutMillis) throws IOException {
		try (Socket socket = new Socket()) {
			if (localAddress != null) {
				socket.bind(new InetSocketAddress(localAddress, 0));
			}
			socket.connect(new InetSocketAddress(host, port), timeoutMillis);
			socket.setSoTimeout(timeoutMillis);
			OutputStream out = socket.getOutputStream();
			try {
				out.write(request);
				out.flush();
			}
			catch (SocketException ex) {
				// the server may answer and close before it read all of a refused request
			}
			socket.shutdownOutput();
			return parse(readAll(socket.getInputStream()));
		}
	}

	private static byte[] readAll(InputStream in) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		byte[] buffer = new byte[8192];
		try {
			for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
				bytes.write(buffer, 0, n);
			}
		}
		catch (SocketException ex) {
			// a reset after a whole response is no loss: parse decides
			if (bytes.size() == 0) {
				throw ex;
			}
		}
		return bytes.toByteArray();
	}

	static Response parse(byte[] raw) throws IOException {
		String text = new String(raw, StandardCharsets.ISO_8859_1);
		int headEnd = text.indexOf("\r\n\r\n");
		if (headEnd < 0) {
			throw new IOException("no whole response head in " + raw.length + " bytes: " + abbreviate(text));
		}
		String[] lines = text.substring(0, headEnd).split("\r\n");
		String[] statusLine = lines[0].split(" ", 3);
		if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
			throw new IOException("not a status line: " + abbreviate(lines[0]));
		}
		int status = Integer.parseInt(statusLine[1]);
		Map<String, String> headers = new LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			if (colon > 0) {
				headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
						lines[i].substring(colon + 1).strip());
			}
		}
		byte[] rest = java.util.Arrays.copyOfRange(raw, headEnd + 4, raw.length);
		byte[] body;
		if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
			body = dechunk(rest);
		}
		else if (headers.containsKey("content-length")) {
			int length = Integer.parseInt(headers.get("content-length"));
			if (rest.length < length) {
				throw new IOException("body cut short: " + rest.length + " of " + length + " bytes");
			}
			body = java.util.Arrays.copyOf(rest, length);
		}
		else {
			body = rest;
		}
		return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
	}

	private static byte[] dechunk(byte[] chunked) throws IOException {
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		int at = 0;
		while (true) {
			int lineEnd = indexOfCrlf(chunked, at);
			if (lineEnd < 0) {
				throw new IOException("chunked body cut short");
			}
			String sizeLine = new String(chunked, at, lineEnd - at, StandardCharsets.ISO_8859_1);
			int size = Integer.parseInt(sizeLine.split(";")[0].strip(), 16);
			at = lineEnd + 2;
			if (size == 0) {
				return body.toByteArray();
			}
			if (at + size > chunked.length) {
				throw new IOException("chunk cut short");
			}
			body.write(chunked, at, size);
			at += size + 2;
		}
	}

	private static int indexOfCrlf(byte[] bytes, int from) {
		for (int i = from; i + 1 < bytes.length; i++) {
			if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
				return i;
			}
		}
		return -1;
	}

	private static String abbreviate(String text) {
		return (text.length() > 200) ? text.substring(0, 200) + "…" : text;
	}

}
