package io.kindling.infra.bench.rooms;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

/**
 * Push latency at a steady rate, open loop: from sending the join that completes a room
 * on A to the {@code matched} event on the other participant's stream on B. Nine in ten
 * rooms have a listener with an event stream open on B; one in ten a client polling every
 * second, whose phase is random against the room's forming, as clients learned of their
 * rooms before the push. The first second runs at the same rate unmeasured: the target is
 * a latency at a steady rate, and the first rooms pay for the push path's first use on
 * the instances (the warm-up opens no event stream).
 */
final class PushPhase {

	/** A push slower than this is listed with its time into the measured phase. */
	static final long SLOW_PUSH_MICROS = 20_000;

	private static final int LISTENERS = 192;

	/** What the phase counts: joins sent while measured, rooms whose event never came. */
	private static final String JOINS = "joins";

	private static final String MISSED = "missed";

	record PushResult(Histogram pushed, Histogram polled, double joinsPerSecond, long errors, long missed,
			List<String> slow, Histogram leadIn) {

	}

	private PushPhase() {
	}

	/** {@code roomsPerSecond} rooms (twice as many joins) a second for the seconds. */
	static PushResult run(RoomsLoad rooms, double roomsPerSecond, int seconds) throws Exception {
		ServiceClient a = rooms.a;
		ServiceClient b = rooms.b;
		int sessions = (int) Math.ceil(roomsPerSecond * (1 + seconds)) + 10;
		BlockingQueue<String> completers = new ArrayBlockingQueue<>(sessions);
		for (int i = 0; i < sessions; i++) {
			completers.add(RoomsLoad.session(a));
		}
		BlockingQueue<Listener> listeners = new ArrayBlockingQueue<>(LISTENERS);
		List<Listener> all = new ArrayList<>();
		Histogram pushed = new Histogram(60_000_000L, 3);
		Histogram polled = new Histogram(60_000_000L, 3);
		Histogram leadInPushed = new Histogram(60_000_000L, 3);
		List<String> slow = Collections.synchronizedList(new ArrayList<>());
		try {
			for (int i = 0; i < LISTENERS; i++) {
				Listener listener = Listener.open(b, RoomsLoad.session(b));
				all.add(listener);
				listeners.add(listener);
			}
			Load.OpenResult run = Load.openLoop(roomsPerSecond, Duration.ofSeconds(1), Duration.ofSeconds(seconds),
					(call) -> {
						String topic = RoomsLoad.join(call.index());
						String completer = completers.take();
						if (call.index() % 10 == 9) {
							polledRoom(a, b, topic, completer, call.measured() ? polled : null, call);
							return;
						}
						Listener listener = listeners.poll();
						if (listener == null) {
							call.count(MISSED);
							return;
						}
						try {
							CountDownLatch matched = listener.expect();
							Response waiting = b.send("POST", "/api/matching", listener.token, topic);
							if (waiting.status() != 202) {
								throw new IllegalStateException("the listener's join: " + waiting.status());
							}
							long sent = System.nanoTime();
							Duration intoRun = call.sinceRunStart();
							Response completing = a.send("POST", "/api/matching", completer, topic);
							if (call.measured()) {
								call.count(JOINS, 2);
							}
							if (completing.status() != 200) {
								throw new IllegalStateException("the completing join: " + completing.status());
							}
							if (!matched.await(5, TimeUnit.SECONDS)) {
								call.count(MISSED);
								return;
							}
							long micros = Math.max(1, (listener.matchedAt - sent) / 1_000);
							Histogram into = call.measured() ? pushed : leadInPushed;
							synchronized (into) {
								into.recordValue(micros);
							}
							if (call.measured() && micros > SLOW_PUSH_MICROS) {
								slow.add(String.format("%.1f ms at %.2f s", micros / 1e3, intoRun.toNanos() / 1e9));
							}
						}
						finally {
							b.send("DELETE", "/api/matching", listener.token, null);
							listeners.add(listener);
						}
					});
			Result measured = run.measured();
			return new PushResult(pushed, polled, measured.count(JOINS) / measured.seconds(),
					measured.errors() + run.leadIn().errors(), measured.count(MISSED) + run.leadIn().count(MISSED),
					List.copyOf(slow), leadInPushed);
		}
		finally {
			all.forEach(Listener::close);
		}
	}

	/**
	 * A client without the push: polls every second; the room forms at a random point of
	 * its cycle. Its latency goes to {@code polled} unless that is null (the lead-in).
	 */
	private static void polledRoom(ServiceClient a, ServiceClient b, String topic, String completer,
			@Nullable Histogram polled, Load.Call call) throws InterruptedException {
		String poller = RoomsLoad.session(b);
		long joined = System.nanoTime();
		Response waiting = b.send("POST", "/api/matching", poller, topic);
		if (waiting.status() != 202) {
			throw new IllegalStateException("the poller's join: " + waiting.status());
		}
		TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextInt(1_000));
		long sent = System.nanoTime();
		a.send("POST", "/api/matching", completer, topic);
		if (call.measured()) {
			call.count(JOINS, 2);
		}
		for (int poll = 1; poll <= 5; poll++) {
			TimeUnit.NANOSECONDS.sleep(Math.max(0, joined + poll * 1_000_000_000L - System.nanoTime()));
			if (b.send("GET", "/api/matching", poller, null).field("status").equals("matched")) {
				if (polled != null) {
					synchronized (polled) {
						polled.recordValue(Math.max(1, (System.nanoTime() - sent) / 1_000));
					}
				}
				return;
			}
		}
		throw new IllegalStateException("the poller saw no room in 5 s");
	}

	/** A client with an event stream open on an instance. */
	private static final class Listener {

		private final String token;

		private final CountDownLatch subscribed = new CountDownLatch(1);

		private final AtomicReference<CountDownLatch> matched = new AtomicReference<>(new CountDownLatch(1));

		private volatile long matchedAt;

		private @Nullable EventStream stream;

		private Listener(String token) {
			this.token = token;
		}

		static Listener open(ServiceClient http, String token) throws InterruptedException {
			Listener listener = new Listener(token);
			listener.stream = http.events("/api/matching/events", token, listener::line);
			if (!listener.subscribed.await(10, TimeUnit.SECONDS)) {
				listener.close();
				throw new IllegalStateException("the event stream did not begin with :subscribed");
			}
			return listener;
		}

		private void line(String line) {
			if (line.equals(":subscribed")) {
				this.subscribed.countDown();
			}
			else if (line.equals("event:matched")) {
				this.matchedAt = System.nanoTime();
				this.matched.get().countDown();
			}
		}

		CountDownLatch expect() {
			CountDownLatch latch = new CountDownLatch(1);
			this.matched.set(latch);
			return latch;
		}

		void close() {
			if (this.stream != null) {
				this.stream.close();
			}
		}

	}

}
