package io.kindling.infra.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * An event stream held open as a browser holds it: its status and headers as soon as they
 * arrive, its lines read on a thread of their own into a queue, until {@link #close()}.
 */
public final class SseStream implements AutoCloseable {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final HttpResponse<Stream<String>> response;

	private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

	private SseStream(HttpResponse<Stream<String>> response) {
		this.response = response;
		Thread.ofVirtual().name("sse-" + response.uri().getPath()).start(() -> {
			try (Stream<String> body = response.body()) {
				body.forEach(this.lines::add);
			}
			catch (UncheckedIOException ex) {
				// closed by close(), or by the server
			}
		});
	}

	/**
	 * Sends {@code GET uri} with the headers (name, value, name, value...) and returns
	 * once the answer's head is in, whatever its status.
	 */
	public static SseStream open(URI uri, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream");
		for (int i = 0; i + 1 < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		try {
			return new SseStream(HTTP.send(request.build(), HttpResponse.BodyHandlers.ofLines()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("GET " + uri + " failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Opens the stream and waits for its {@code :subscribed} comment, as a client that
	 * wants to know it is listening.
	 * @throws AssertionError unless the answer is 200 and starts so within 10 s
	 */
	public static SseStream subscribe(URI uri, String... headers) throws InterruptedException {
		SseStream stream = open(uri, headers);
		String first = (stream.status() == 200) ? stream.lines.poll(10, TimeUnit.SECONDS) : null;
		if (!":subscribed".equals(first)) {
			stream.close();
			throw new AssertionError("GET " + uri + " answered " + stream.status() + ", first line " + first);
		}
		return stream;
	}

	public int status() {
		return this.response.statusCode();
	}

	public @Nullable String header(String name) {
		return this.response.headers().firstValue(name).orElse(null);
	}

	/** Every line received so far and to come; a blank line ends each event. */
	public BlockingQueue<String> lines() {
		return this.lines;
	}

	/** The next whole event (comments skipped), or null if none comes within the wait. */
	public @Nullable SseEvent next(Duration wait) throws InterruptedException {
		return SseEvent.next(this.lines, wait);
	}

	/**
	 * The next whole event.
	 * @throws AssertionError if none comes within 10 s
	 */
	public SseEvent nextEvent() throws InterruptedException {
		SseEvent event = next(Duration.ofSeconds(10));
		if (event == null) {
			throw new AssertionError("no event within 10 s on " + this.response.uri());
		}
		return event;
	}

	/**
	 * @throws AssertionError if an event comes within the wait
	 */
	public void assertNoEventWithin(Duration wait) throws InterruptedException {
		SseEvent event = next(wait);
		if (event != null) {
			throw new AssertionError("expected no event on " + this.response.uri() + ", got " + event);
		}
	}

	@Override
	public void close() {
		this.response.body().close();
	}

}
