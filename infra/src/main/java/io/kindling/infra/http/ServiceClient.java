package io.kindling.infra.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * A client of one service on the loopback, as a real client calls it: plain HTTP/1.1 over
 * keep-alive connections, which any number of threads share (each request takes an idle
 * connection or opens one, and gives it back). The one HTTP client of every test and
 * bench.
 */
public final class ServiceClient {

	private static final String HOST = "127.0.0.1";

	private final int port;

	private final Duration timeout;

	private final Queue<HttpConnection> idle = new ConcurrentLinkedQueue<>();

	private final @Nullable BiConsumer<Request, Response> observer;

	private final @Nullable String from;

	public ServiceClient(int port) {
		this(port, Duration.ofSeconds(60));
	}

	/**
	 * @param timeout for connecting, and for each read of an answer
	 */
	public ServiceClient(int port, Duration timeout) {
		this(port, timeout, null, null);
	}

	private ServiceClient(int port, Duration timeout, @Nullable BiConsumer<Request, Response> observer,
			@Nullable String from) {
		this.port = port;
		this.timeout = timeout;
		this.observer = observer;
		this.from = from;
	}

	/**
	 * A client of the same service that shows {@code observer} every request it sends
	 * with its answer (event streams aside), on the sending thread.
	 */
	public ServiceClient observedBy(BiConsumer<Request, Response> observer) {
		return new ServiceClient(this.port, this.timeout, observer, this.from);
	}

	/**
	 * A client of the same service that connects from another loopback address (any of
	 * 127.0.0.0/8), so that the service sees another client, of another network when the
	 * third number differs.
	 */
	public ServiceClient from(String loopbackAddress) {
		return new ServiceClient(this.port, this.timeout, this.observer, loopbackAddress);
	}

	public int port() {
		return this.port;
	}

	/** {@code http://127.0.0.1:<port>}. */
	public String base() {
		return "http://" + HOST + ":" + this.port;
	}

	/**
	 * Sends a request: {@code Authorization: Bearer <token>} when a token is given, and a
	 * body as JSON unless {@code headers} (name, value, name, value...) set another
	 * Content-Type.
	 */
	public Response send(String method, String path, @Nullable String token, @Nullable String body, String... headers) {
		Request request = Request.of(method, path).bearer(token);
		for (int i = 0; i + 1 < headers.length; i += 2) {
			request = request.header(headers[i], headers[i + 1]);
		}
		return send((body != null) ? request.json(body) : request);
	}

	public Response get(String path, @Nullable String token) {
		return send("GET", path, token, null);
	}

	/** Sends the request on an idle connection, or a new one. */
	public Response send(Request request) {
		try {
			return sendOrThrow(request);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(request.method() + " " + request.path() + " failed", ex);
		}
	}

	/** As {@link #send(Request)}, for callers that handle the I/O failure themselves. */
	public Response sendOrThrow(Request request) throws IOException {
		HttpConnection connection = this.idle.poll();
		if (connection == null) {
			connection = new HttpConnection(HOST, this.port, this.timeout, this.from);
		}
		Response response;
		try {
			response = connection.send(request);
		}
		catch (IOException | RuntimeException ex) {
			connection.close();
			throw ex;
		}
		this.idle.add(connection);
		if (this.observer != null) {
			this.observer.accept(request, response);
		}
		return response;
	}

	/**
	 * Opens an event stream ({@code Accept: text/event-stream}) on a connection of its
	 * own; each line of the body goes to {@code lines}, on the stream's own thread, as it
	 * arrives.
	 */
	public EventStream events(String path, @Nullable String token, Consumer<String> lines) {
		return EventStream.open(new HttpConnection(HOST, this.port, Duration.ZERO, this.from),
				Request.get(path).bearer(token).header("Accept", "text/event-stream"), lines);
	}

	/**
	 * As {@link #events(String, String, Consumer)}, the lines kept in the stream's queue.
	 */
	public EventStream events(String path, @Nullable String token) {
		return events(Request.get(path).bearer(token));
	}

	/**
	 * Opens an event stream with a request of the caller's (more headers:
	 * {@code Last-Event-ID}, {@code Origin}), the lines kept in the stream's queue.
	 */
	public EventStream events(Request request) {
		return EventStream.open(new HttpConnection(HOST, this.port, Duration.ZERO, this.from),
				request.hasHeader("Accept") ? request : request.header("Accept", "text/event-stream"), null);
	}

}
