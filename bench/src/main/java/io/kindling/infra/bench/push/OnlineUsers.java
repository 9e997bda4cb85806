package io.kindling.infra.bench.push;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.http.ServiceClient;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The push bench's online users, users 1 to n on one instance: each holds its event
 * stream ({@code GET /api/events}) open and polls {@code GET /api/matches} once a second,
 * at a phase of its own, noting when each match first reached it by either way, from the
 * match's {@code matched_at}.
 */
final class OnlineUsers {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The matches made while measured: only those count. */
	final Set<Long> made = ConcurrentHashMap.newKeySet();

	private final Map<Long, Long> pushed = new ConcurrentHashMap<>();

	private final Map<Long, Long> polled = new ConcurrentHashMap<>();

	/** Online users whose polling stopped on an error (each stops at its first). */
	final AtomicInteger pollErrors = new AtomicInteger();

	private final List<EventStream> streams = new ArrayList<>();

	private final AtomicBoolean stopped = new AtomicBoolean();

	/** How soon the online users learned of the matches made, by push and by poll. */
	record Seen(Histogram pushed, long notPushed, Histogram polled, long notPolled) {

	}

	static OnlineUsers start(ServiceClient http, BenchStack stack, int online) throws InterruptedException {
		OnlineUsers users = new OnlineUsers();
		for (long user = 1; user <= online; user++) {
			users.start(http, stack.token(user));
		}
		return users;
	}

	private void start(ServiceClient http, String token) throws InterruptedException {
		ServerSentEvent.Parser parser = new ServerSentEvent.Parser();
		EventStream stream = http.events("/api/events", token, (line) -> {
			ServerSentEvent event = parser.accept(line);
			if (event != null && "match_created".equals(event.name())) {
				JsonNode match = JSON.readTree(event.data());
				this.pushed.putIfAbsent(match.get("match_id").asLong(), sinceMatched(match));
			}
		});
		if (stream.status() != 200) {
			throw new IllegalStateException("GET /api/events answered " + stream.status());
		}
		this.streams.add(stream);
		Thread.ofVirtual().start(() -> poll(http, token));
	}

	private void poll(ServiceClient http, String token) {
		try {
			// each user at a phase of its own, as people are
			TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(1_000));
			long next = System.nanoTime();
			while (!this.stopped.get()) {
				Response page = http.sendOrThrow(Request.get("/api/matches").bearer(token));
				for (JsonNode match : JSON.readTree(page.body()).get("matches")) {
					this.polled.putIfAbsent(match.get("match_id").asLong(), sinceMatched(match));
				}
				next += TimeUnit.SECONDS.toNanos(1);
				TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
			}
		}
		catch (InterruptedException | IOException ex) {
			this.pollErrors.incrementAndGet();
		}
	}

	void stop() {
		this.stopped.set(true);
		this.streams.forEach(EventStream::close);
	}

	/** For each match made while measured, when it reached its user, in µs. */
	Seen seen() {
		Histogram pushedAfter = new Histogram(60_000_000L, 3);
		Histogram polledAfter = new Histogram(60_000_000L, 3);
		long notPushed = 0;
		long notPolled = 0;
		for (long match : this.made) {
			Long push = this.pushed.get(match);
			Long poll = this.polled.get(match);
			if (push == null) {
				notPushed++;
			}
			else {
				pushedAfter.recordValue(Math.max(1, push));
			}
			if (poll == null) {
				notPolled++;
			}
			else {
				polledAfter.recordValue(Math.max(1, poll));
			}
		}
		return new Seen(pushedAfter, notPushed, polledAfter, notPolled);
	}

	/** Microseconds from a match's {@code matched_at} to now, on this machine's clock. */
	private static long sinceMatched(JsonNode match) {
		return ChronoUnit.MICROS.between(Instant.parse(match.get("matched_at").asString()), Instant.now());
	}

}
