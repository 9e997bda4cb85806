package io.kindling.infra.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * An open response whose body is read line by line as it arrives (server-sent events), on
 * a daemon thread of its own, until the server ends it or {@link #close()}.
 */
public final class EventStream implements AutoCloseable {

	private final HttpConnection connection;

	private final int status;

	private final Map<String, List<String>> headers;

	private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

	private final CountDownLatch ended = new CountDownLatch(1);

	private EventStream(HttpConnection connection, HttpConnection.Head head) {
		this.connection = connection;
		this.status = head.status();
		this.headers = head.headers();
	}

	static EventStream open(HttpConnection connection, Request request, @Nullable Consumer<String> onLine) {
		HttpConnection.Head head;
		try {
			head = connection.open(request);
		}
		catch (IOException ex) {
			connection.close();
			throw new UncheckedIOException(request.method() + " " + request.path() + " failed", ex);
		}
		EventStream stream = new EventStream(connection, head);
		Consumer<String> consumer = (onLine != null) ? onLine : stream.lines::add;
		BufferedReader reader = new BufferedReader(new InputStreamReader(head.body(), StandardCharsets.UTF_8));
		Thread.ofPlatform().daemon().name("event-stream-" + request.path()).start(() -> {
			try {
				for (String line = reader.readLine(); line != null; line = reader.readLine()) {
					consumer.accept(line);
				}
			}
			catch (IOException ex) {
				// closed by close(), or by the server
			}
			finally {
				stream.ended.countDown();
			}
		});
		return stream;
	}

	public int status() {
		return this.status;
	}

	public Map<String, List<String>> headers() {
		return this.headers;
	}

	/**
	 * The lines received so far and to come (an empty line ends each event); empty when
	 * the stream was opened with a consumer of its own.
	 */
	public BlockingQueue<String> lines() {
		return this.lines;
	}

	/** The next line, or null if none arrives within {@code timeout}. */
	public @Nullable String nextLine(Duration timeout) throws InterruptedException {
		return this.lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
	}

	/**
	 * The next whole event among the lines (comments skipped), or null if none is
	 * complete within {@code timeout}.
	 */
	public @Nullable ServerSentEvent nextEvent(Duration timeout) throws InterruptedException {
		return ServerSentEvent.next(this.lines, timeout);
	}

	/**
	 * Waits for the stream's first line, as a client that wants to know it is listening.
	 * @return this stream
	 * @throws AssertionError unless the status is 200 and the first line, within 10 s, is
	 * the one expected
	 */
	public EventStream awaitFirstLine(String expected) throws InterruptedException {
		String first = (this.status == 200) ? nextLine(Duration.ofSeconds(10)) : null;
		if (!expected.equals(first)) {
			close();
			throw new AssertionError("expected a stream starting with " + expected + ", got status " + this.status
					+ " and first line " + first);
		}
		return this;
	}

	/**
	 * The next whole event.
	 * @throws AssertionError if none comes within 10 s
	 */
	public ServerSentEvent nextEvent() throws InterruptedException {
		ServerSentEvent event = nextEvent(Duration.ofSeconds(10));
		if (event == null) {
			throw new AssertionError("no event within 10 s");
		}
		return event;
	}

	/**
	 * The next whole event, which must have this name.
	 * @throws AssertionError if none comes within 10 s or it has another name
	 */
	public ServerSentEvent nextEvent(String name) throws InterruptedException {
		ServerSentEvent event = nextEvent();
		if (!name.equals(event.name())) {
			throw new AssertionError("expected a " + name + " event, got " + event);
		}
		return event;
	}

	/**
	 * @throws AssertionError if an event comes within the wait
	 */
	public void assertNoEventWithin(Duration wait) throws InterruptedException {
		ServerSentEvent event = nextEvent(wait);
		if (event != null) {
			throw new AssertionError("expected no event, got " + event);
		}
	}

	/**
	 * Whether the body ended (the server finished the response, or {@link #close()})
	 * within {@code timeout}.
	 */
	public boolean awaitEnd(Duration timeout) throws InterruptedException {
		return this.ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
	}

	/** The header's first value, or null. */
	public @Nullable String header(String name) {
		List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
		return (values == null || values.isEmpty()) ? null : values.get(0);
	}

	@Override
	public void close() {
		this.connection.close();
	}

}
