package io.kindling.infra.bench.push;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.swipes.SwipesBench;
import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static io.kindling.infra.bench.Percentiles.ms;

/**
 * {@code ./kindling bench push [--rate 200] [--seconds 30] [--warmup 60] [--online 200] [--instances 2]}:
 * how soon a person learns of a match the other person made, by push and by polling, in
 * one run. Starts its own Redis, MariaDB and two swipe-service jars on free ports.
 * {@code --online} users are online on instance B: each holds its event stream
 * ({@code GET /api/events}) open and polls {@code GET /api/matches} once a second, at a
 * phase of its own. Each has liked many others beforehand; at {@code --rate} swipes a
 * second (an open loop on instance A) one of those others likes an online user back,
 * which makes a match, spread evenly over the online users. For each match the bench
 * records when the online user's stream got its {@code match_created} and when its poll
 * first listed it, both from the match's {@code matched_at} (stamped by the service
 * before the match's transaction commits, on this machine's clock, so a little more than
 * the time from the commit). The first {@code --warmup} seconds count apart: the services
 * are new JVMs, and until their hot paths are compiled (a minute at this rate) each match
 * costs several times the CPU, which at 200 a second is more than two cores have. Stops
 * everything it started.
 */
public final class PushBench {

	private static final String DATABASE = "kindling_swipe";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/**
	 * The bound the push is held to: p99 from the commit to the other person's stream.
	 */
	private static final double PUSH_P99_BOUND_MS = 100;

	private PushBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int rate = (int) options.number("--rate", 200);
		int seconds = (int) options.number("--seconds", 30);
		int warmup = (int) options.number("--warmup", 60);
		int online = (int) options.number("--online", 200);
		int instances = (int) options.number("--instances", 2);
		// every match needs a partner of its own: a pair matches once
		int partners = rate * (warmup + seconds + 5);
		try (BenchStack stack = BenchStack.of("push", options).redis().mariaDb(DATABASE).start()) {
			String secret = Hs256.newSecret();
			List<String> settings = new ArrayList<>(
					List.of("--kindling.security.jwt-secret=" + secret, "--kindling.swipe.daily-likes=0",
							"--kindling.swipe.daily-super-likes=0", "--logging.level.root=WARN"));
			settings.addAll(options.settings());
			ServiceJar a = stack.startService("swipe-service", "512m", "swipe-service-a.log", settings);
			ServiceJar b = (instances > 1)
					? stack.startService("swipe-service", "512m", "swipe-service-b.log", settings) : a;
			try (Connection db = DriverManager.getConnection(stack.jdbcUrl(DATABASE), MariaDbServer.USER,
					MariaDbServer.PASSWORD)) {
				SwipesBench.seedProfiles(db, 1, online + partners);
			}
			ServiceClient swipesOnA = new ServiceClient(a.port(), Duration.ofSeconds(10));
			ServiceClient onlineOnB = new ServiceClient(b.port(), Duration.ofSeconds(10));
			Tokens tokens = new Tokens(secret);
			System.out.printf(
					"push bench: %d online users on %s, %d matches/s made on %s, %d s measured after %d s of warm-up%n",
					online, (instances > 1) ? "instance B" : "the one instance", rate,
					(instances > 1) ? "instance A" : "it", seconds, warmup);

			System.out.printf("the online users like their %,d partners first...%n", partners);
			long likesStarted = System.nanoTime();
			likeEveryPartner(swipesOnA, tokens, online, partners);
			System.out.printf("  done in %.1f s%n", (System.nanoTime() - likesStarted) / 1e9);

			Seen seen = new Seen();
			List<Online> users = new ArrayList<>(online);
			for (long user = 1; user <= online; user++) {
				users.add(Online.start(onlineOnB, tokens.of(user), seen));
			}
			System.out.println("partners like back...");
			// the CPU from the first measured call: the warm-up's is not the steady
			// state's
			AtomicReference<CpuMark> measuredFrom = new AtomicReference<>();
			Load.OpenResult run = Load.openLoop(rate, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds),
					(call) -> {
						if (call.measured() && measuredFrom.get() == null) {
							measuredFrom.compareAndSet(null, new CpuMark(System.nanoTime(), stack.cpu()));
						}
						long partner = online + 1 + call.index();
						long user = 1 + call.index() % online;
						if (partner > online + partners) {
							call.finish();
							return;
						}
						Response answer = swipesOnA.sendOrThrow(Request.of("POST", "/api/swipes")
							.bearer(tokens.of(partner))
							.header("Idempotency-Key", "back-" + partner)
							.json("{\"target_user_id\":" + user + ",\"action\":\"LIKE\"}"));
						JsonNode body = (answer.status() == 200) ? JSON.readTree(answer.body()) : null;
						if (body == null || !body.get("matched").asBoolean()) {
							throw new IOException("no match: HTTP " + answer.status() + " " + answer.body());
						}
						call.count("matches");
						if (call.measured()) {
							seen.made.add(body.get("match_id").asLong());
						}
					});
			// a poll lists a match at most a second after it is made; give the slowest
			// two
			TimeUnit.SECONDS.sleep(2);
			CpuMark from = measuredFrom.get();
			CpuTime cpu = (from != null) ? stack.cpu().minus(from.cpu()) : CpuTime.NONE;
			double wallSeconds = (from != null) ? (System.nanoTime() - from.nanos()) / 1e9 : 0;
			users.forEach(Online::stop);
			String load = BenchHost.loadAverage(" ");

			Histogram pushed = new Histogram(60_000_000L, 3);
			Histogram polled = new Histogram(60_000_000L, 3);
			long notPushed = 0;
			long notPolled = 0;
			for (long match : seen.made) {
				Long push = seen.pushed.get(match);
				Long poll = seen.polled.get(match);
				if (push == null) {
					notPushed++;
				}
				else {
					pushed.recordValue(Math.max(1, push));
				}
				if (poll == null) {
					notPolled++;
				}
				else {
					polled.recordValue(Math.max(1, poll));
				}
			}
			Result swipes = run.measured();
			System.out.println();
			System.out.printf(
					"%d matches/s for %d s (%,d made), %d online users each polling once a second, %s; from matched_at to the other person knowing:%n%n",
					rate, seconds, seen.made.size(), online,
					(instances > 1) ? "matches made on A, streams and polls on B" : "one instance");
			String format = "| %-42s | %7s | %8s | %8s | %8s | %8s | %6s |%n";
			System.out.printf(format, "how the other person learns of the match", "matches", "p50 ms", "p90 ms",
					"p99 ms", "max ms", "missed");
			System.out.printf(format, "---", "---:", "---:", "---:", "---:", "---:", "---:");
			System.out.printf(format, "push: match_created on GET /api/events", pushed.getTotalCount(),
					fixed(ms(pushed, 50)), fixed(ms(pushed, 90)), fixed(ms(pushed, 99)), fixed(ms(pushed, 100)),
					notPushed);
			System.out.printf(format, "poll: GET /api/matches once a second", polled.getTotalCount(),
					fixed(ms(polled, 50)), fixed(ms(polled, 90)), fixed(ms(polled, 99)), fixed(ms(polled, 100)),
					notPolled);
			if (seen.made.isEmpty()) {
				System.out.printf("%nno match was made in the measured seconds: see the swipes' errors below.%n");
			}
			else {
				System.out.printf("%npush p99 ≤ %.0f ms: %s; push p99 is %.0f times shorter than the poll's.%n",
						PUSH_P99_BOUND_MS, (ms(pushed, 99) <= PUSH_P99_BOUND_MS && notPushed == 0) ? "met" : "not met",
						ms(polled, 99) / Math.max(0.001, ms(pushed, 99)));
			}
			System.out.printf(
					"the liking-back swipe itself (open loop, from when it was due): p50 %.1f ms, p99 %.1f ms, %.0f/s achieved; errors %d %s; polls that failed %d%n",
					ms(swipes.latency(), 50), ms(swipes.latency(), 99), swipes.perSecond(),
					swipes.errors() + run.leadIn().errors(), swipes.errorKinds(), seen.pollErrors.get());
			long made = swipes.count("matches");
			System.out.printf(
					"CPU over the measured seconds, per match made in them (%,d), polls and pushes included: services %.2f ms, MariaDB %.2f ms, Redis %.2f ms, the bench %.2f ms; %.2f cores busy with these of %d%n",
					made, CpuTime.msPer(cpu.services(), made), CpuTime.msPer(cpu.mariaDb(), made),
					CpuTime.msPer(cpu.redis(), made), CpuTime.msPer(cpu.bench(), made),
					cpu.total().toNanos() / 1e9 / wallSeconds, Runtime.getRuntime().availableProcessors());
			System.out.printf("load average at the end %s%n", load);
			// behind its schedule, the open loop sends in bursts as answers free up, and
			// what is timed is a queue, not the push
			if (swipes.perSecond() < 0.95 * rate || ms(swipes.latency(), 50) > 1_000) {
				System.out.printf(
						"the services did not keep up with %d matches/s on this machine now (%.0f/s, swipe p50 %.0f ms): the figures above measure a backlog; run again when it is quieter or with a lower --rate%n",
						rate, swipes.perSecond(), ms(swipes.latency(), 50));
			}
		}
	}

	/**
	 * Each online user likes its share of the partners (partner p goes to user p mod
	 * online).
	 */
	private static void likeEveryPartner(ServiceClient http, Tokens tokens, int online, int partners)
			throws InterruptedException {
		AtomicInteger next = new AtomicInteger();
		Result likes = Load.closedLoop(32, Duration.ofHours(1), (call) -> {
			int index = next.getAndIncrement();
			if (index >= partners) {
				call.finish();
				return;
			}
			long partner = online + 1 + index;
			long user = 1 + index % online;
			Request like = Request.of("POST", "/api/swipes")
				.bearer(tokens.of(user))
				.header("Idempotency-Key", "first-" + partner)
				.json("{\"target_user_id\":" + partner + ",\"action\":\"LIKE\"}");
			Response answer = http.sendOrThrow(like);
			// setting up, not measured: a store that was slow to answer on a busy
			// machine is asked again, as the 503 says is safe
			for (int retry = 0; retry < 5 && answer.status() == 503; retry++) {
				TimeUnit.MILLISECONDS.sleep(200);
				answer = http.sendOrThrow(like);
			}
			if (answer.status() != 200) {
				throw new IOException("HTTP " + answer.status() + " " + answer.body());
			}
		});
		if (likes.errors() > 0) {
			throw new IllegalStateException("the first likes failed: " + likes.errorKinds());
		}
	}

	private static String fixed(double ms) {
		return String.format("%.1f", ms);
	}

	/** Microseconds from a match's {@code matched_at} to now, on this machine's clock. */
	private static long sinceMatched(JsonNode match) {
		return ChronoUnit.MICROS.between(Instant.parse(match.get("matched_at").asString()), Instant.now());
	}

	/** When each match reached its online user, by push and by poll, in µs. */
	private static final class Seen {

		private final Set<Long> made = ConcurrentHashMap.newKeySet();

		private final Map<Long, Long> pushed = new ConcurrentHashMap<>();

		private final Map<Long, Long> polled = new ConcurrentHashMap<>();

		/** Online users whose polling stopped on an error (each stops at its first). */
		private final AtomicInteger pollErrors = new AtomicInteger();

	}

	/** One token per user, signed once. */
	private record Tokens(String secret, Map<Long, String> signed) {

		Tokens(String secret) {
			this(secret, new ConcurrentHashMap<>());
		}

		String of(long user) {
			return this.signed.computeIfAbsent(user, (id) -> Hs256.token(this.secret, id));
		}

	}

	/** An online user: its event stream open, and a poll once a second. */
	private static final class Online {

		private final EventStream stream;

		private final AtomicBoolean stopped;

		private Online(EventStream stream, AtomicBoolean stopped) {
			this.stream = stream;
			this.stopped = stopped;
		}

		static Online start(ServiceClient http, String token, Seen seen) throws InterruptedException {
			ServerSentEvent.Parser parser = new ServerSentEvent.Parser();
			EventStream stream = http.events("/api/events", token, (line) -> {
				ServerSentEvent event = parser.accept(line);
				if (event != null && "match_created".equals(event.name())) {
					JsonNode match = JSON.readTree(event.data());
					seen.pushed.putIfAbsent(match.get("match_id").asLong(), sinceMatched(match));
				}
			});
			if (stream.status() != 200) {
				throw new IllegalStateException("GET /api/events answered " + stream.status());
			}
			AtomicBoolean stopped = new AtomicBoolean();
			Thread.ofVirtual().start(() -> poll(http, token, seen, stopped));
			return new Online(stream, stopped);
		}

		private static void poll(ServiceClient http, String token, Seen seen, AtomicBoolean stopped) {
			try {
				// each user at a phase of its own, as people are
				TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(1_000));
				long next = System.nanoTime();
				while (!stopped.get()) {
					Response page = http.sendOrThrow(Request.get("/api/matches").bearer(token));
					for (JsonNode match : JSON.readTree(page.body()).get("matches")) {
						seen.polled.putIfAbsent(match.get("match_id").asLong(), sinceMatched(match));
					}
					next += TimeUnit.SECONDS.toNanos(1);
					TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
				}
			}
			catch (InterruptedException | IOException ex) {
				seen.pollErrors.incrementAndGet();
			}
		}

		void stop() {
			this.stopped.set(true);
			this.stream.close();
		}

	}

	/** The CPU the stack had spent at a moment ({@link System#nanoTime()}). */
	private record CpuMark(long nanos, CpuTime cpu) {

	}

}
