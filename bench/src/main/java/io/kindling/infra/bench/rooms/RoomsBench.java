package io.kindling.infra.bench.rooms;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.MariaDbServer;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;

import static io.kindling.infra.bench.Percentiles.ms;

/**
 * {@code ./kindling bench rooms [--seconds 10] [--clients 32] [--warmup 60] [--setting=value ...]}:
 * starts its own Redis, MariaDB and two matching-service jars on free ports, then
 * measures, in one run:
 * <ol>
 * <li>join→matched throughput across the two instances (a pair's first join on one, the
 * join that completes the room on the other, then both leave), beside a no-op endpoint
 * ({@code /actuator/health/liveness}) on the same instances;</li>
 * <li>push latency at 200 joins/s: from sending the join that completes a room on A to
 * the {@code matched} event on the other participant's stream on B; beside it a client
 * that learns of its room by polling (GET every second), as clients did before the
 * push;</li>
 * <li>the forming script's cost with 100, 10,000 and 100,000 tokens waiting in the queue
 * it pops from, and again with a tenth of the queue recent partners of the entry ahead of
 * them (the script then looks past the two oldest).</li>
 * </ol>
 * {@code --phases forming} runs the last alone, without the services. Stops everything it
 * started.
 *
 * <p>
 * With {@code --redis cluster} (or {@code sentinel}) it measures rooms and pushes on that
 * mode beside a single Redis instead, in one run ({@link BesideStandalone}).
 */
public final class RoomsBench {

	static final String DATABASE = "kindling_matching";

	/** The bench adds its own topics so that concurrent pairs never meet by accident. */
	private static final int FIRST_TOPIC = 1000;

	private static final int TOPICS = 512;

	/**
	 * What the push phase counts: joins sent while measured, rooms whose event never
	 * came.
	 */
	private static final String JOINS = "joins";

	private static final String MISSED = "missed";

	private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

	private static final Pattern STATUS = Pattern.compile("\"status\":\"([a-z]+)\"");

	/**
	 * Rate limits off: the bench is one address joining far more than a person does.
	 */
	// each worker's two sessions form a room with each other every round: the rematch
	// cooldown would keep them apart from the second round on
	static final List<String> SERVICE_SETTINGS = List.of("--kindling.matching.rate-limit.joins-per-minute=0",
			"--kindling.matching.rate-limit.sessions-per-minute=0", "--kindling.matching.rematch-cooldown=0",
			"--logging.level.root=WARN");

	private RoomsBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int seconds = (int) options.number("--seconds", 10);
		int clients = (int) options.number("--clients", 32);
		// the JIT needs tens of thousands of calls of the join path before it is
		// compiled; a short warm-up measures the compiler, not the service
		int warmup = (int) options.number("--warmup", 60);
		if (options.redis() != BenchRedis.Mode.STANDALONE) {
			BesideStandalone.run(options, options.redis(), seconds, clients, warmup);
			return;
		}
		if (options.text("--phases", "all").equals("forming")) {
			try (BenchStack stack = BenchStack.of("rooms", options).redis().start()) {
				System.out.printf("rooms bench, forming only; load average %s%n", BenchHost.loadAverage(" / "));
				List<FormCost> costs = formingCosts(stack,
						stack.root().resolve("matching-service/src/main/resources/scripts/form_room.lua"));
				String format = "| %-62s | %14s | %14s | %-22s |%n";
				System.out.printf("%n" + format, "measurement", "value", "baseline", "ratio (target)");
				System.out.printf(format, "---", "---:", "---:", "---");
				printFormingCosts(format, costs);
				System.out
					.printf("%nEach row the median of 5 rounds of 2,000 calls; 1/10 incompatible: one entry in ten "
							+ "is a recent partner of the entry ahead of it.%n");
			}
			return;
		}
		try (BenchStack stack = BenchStack.of("rooms", options).redis().mariaDb(DATABASE).start()) {
			Path formScript = stack.root().resolve("matching-service/src/main/resources/scripts/form_room.lua");
			// any --name=value argument is a setting for both services
			List<String> settings = new ArrayList<>(SERVICE_SETTINGS);
			settings.addAll(options.settings());
			int portA = stack.startService("matching-service", "512m", "matching-a.log", settings).port();
			int portB = stack.startService("matching-service", "512m", "matching-b.log", settings).port();
			ServiceClient a = new ServiceClient(portA, Duration.ofSeconds(30));
			ServiceClient b = new ServiceClient(portB, Duration.ofSeconds(30));
			addTopics(stack.jdbcUrl(DATABASE));
			System.out.printf(
					"rooms bench: two instances (ports %d, %d), %d clients, %d s per phase, %d s warm-up; load average %s%n",
					portA, portB, clients, seconds, warmup, BenchHost.loadAverage(" / "));

			System.out.println("warming up...");
			noOp(a, b, clients, Math.max(3, warmup / 4));
			rooms(a, b, clients, Math.max(3, warmup - warmup / 4));
			// CPU each process really spent per request: the two services, MariaDB,
			// Redis, this JVM (the clients)
			System.out.println("no-op endpoint at full speed...");
			CpuTime beforeNoOp = stack.cpu();
			Result noOp = noOp(a, b, clients, seconds);
			CpuTime noOpCpu = stack.cpu().minus(beforeNoOp);
			System.out.println("join -> matched at full speed...");
			CpuTime beforeRooms = stack.cpu();
			Result rooms = rooms(a, b, clients, seconds);
			CpuTime roomsCpu = stack.cpu().minus(beforeRooms);
			System.out.println("push latency at 200 joins/s, beside 1 s polling...");
			PushResult push = push(a, b, seconds);
			System.out.println("forming cost by queue depth...");
			List<FormCost> costs = formingCosts(stack, formScript);
			System.out.println();
			System.out.printf(
					"Two matching-service instances, one Redis, one MariaDB, %d closed-loop clients, %d s per row; this 2-core machine.%n%n",
					clients, seconds);
			String format = "| %-62s | %14s | %14s | %-22s |%n";
			System.out.printf(format, "measurement", "value", "baseline", "ratio (target)");
			System.out.printf(format, "---", "---:", "---:", "---");
			double noOpRequestsPerSecond = noOp.attempts() / noOp.seconds();
			double roomsRequestsPerSecond = 4 * rooms.attempts() / rooms.seconds();
			double requestRatio = roomsRequestsPerSecond / noOpRequestsPerSecond;
			System.out.printf(format, "join→matched: rooms/s (join on one, forming join on the other)",
					String.format("%,.0f rooms/s", rooms.perSecond()),
					String.format("%,.0f req/s no-op", noOpRequestsPerSecond), "");
			System.out.printf(format, "join→matched: its requests/s vs the no-op's",
					String.format("%,.0f req/s", roomsRequestsPerSecond),
					String.format("%,.0f req/s", noOpRequestsPerSecond),
					String.format("%.2f (≥ 0.5: %s)", requestRatio, (requestRatio >= 0.5) ? "met" : "not met"));
			System.out.printf(format, "join that forms a room: p50 / p99 latency",
					String.format("%.1f / %.1f ms", ms(rooms.latency(), 50), ms(rooms.latency(), 99)),
					String.format("%.1f / %.1f ms", ms(noOp.latency(), 50), ms(noOp.latency(), 99)), "");
			System.out.printf(format,
					String.format("push: forming join sent → `matched` on B's stream, p50 / p99 (%,d rooms)",
							push.pushed().getTotalCount()),
					String.format("%.1f / %.1f ms", ms(push.pushed(), 50), ms(push.pushed(), 99)),
					String.format("%.0f / %.0f ms poll", ms(push.polled(), 50), ms(push.polled(), 99)),
					String.format("p99 ≤ 20 ms: %s", (ms(push.pushed(), 99) <= 20) ? "met" : "not met"));
			System.out.printf(format, "push: joins/s offered / achieved", "200 joins/s",
					String.format("%.0f joins/s", push.joinsPerSecond()), "");
			printFormingCosts(format, costs);
			System.out.printf(
					"%nCPU per request (ms, from /proc; not distorted by other load): no-op %s; join→matched %s (services, MariaDB, Redis, clients)%n",
					perRequest(noOpCpu, noOp.attempts()), perRequest(roomsCpu, 4 * rooms.attempts()));
			System.out.printf(
					"errors: no-op %d, rooms %d (statuses of the two joins: %s), push %d (missed %d); load average at the end %s%n",
					noOp.errors(), rooms.errors(), rooms.errorKinds(), push.errors(), push.missed(),
					BenchHost.loadAverage(" / "));
			System.out.printf("pushes over %d ms (time into the measured phase): %s%n", SLOW_PUSH_MICROS / 1_000,
					push.slow().isEmpty() ? "none" : String.join(", ", push.slow()));
			System.out.printf(
					"push in the unmeasured lead-in second: p50 / p99 / max %.1f / %.1f / %.1f ms (%,d rooms)%n",
					ms(push.leadIn(), 50), ms(push.leadIn(), 99), push.leadIn().getMaxValue() / 1e3,
					push.leadIn().getTotalCount());
		}
	}

	/**
	 * The forming script's cost on the bench's own queues, each depth with and without a
	 * tenth incompatible.
	 */
	static List<FormCost> formingCosts(BenchStack stack, Path formScript) throws java.io.IOException {
		List<FormCost> costs = new ArrayList<>();
		UnifiedJedis jedis = stack.redis().client();
		String sha = jedis.scriptLoad(Files.readString(formScript));
		int[] depths = { 100, 10_000, 100_000 };
		// scores from two minutes ago, one ms apart: none times out while
		// measured
		NEXT_SCORE[0] = System.currentTimeMillis() - 120_000;
		List<BenchQueue> queues = new ArrayList<>();
		for (boolean tenth : new boolean[] { false, true }) {
			for (int depth : depths) {
				BenchQueue queue = new BenchQueue(depth, tenth);
				fill(jedis, queue);
				queues.add(queue);
			}
		}
		// rounds alternate the queues, so a burst of other work on the machine
		// hits them alike; each queue reports its median round
		List<List<FormCost>> rounds = new ArrayList<>();
		for (int round = 0; round < 5; round++) {
			List<FormCost> thisRound = new ArrayList<>();
			for (BenchQueue queue : queues) {
				thisRound.add(formCost(jedis, sha, queue, 2_000));
			}
			rounds.add(thisRound);
		}
		for (int i = 0; i < queues.size(); i++) {
			int index = i;
			List<FormCost> byP50 = rounds.stream()
				.map((round) -> round.get(index))
				.sorted(Comparator.comparingDouble(FormCost::p50Micros))
				.toList();
			costs.add(byP50.get(byP50.size() / 2));
		}
		return costs;
	}

	private static void printFormingCosts(String format, List<FormCost> costs) {
		FormCost base = costs.get(0);
		for (FormCost cost : costs) {
			System.out.printf(format,
					String.format("form_room.lua, %,d waiting%s: p50 / p99", cost.depth(),
							cost.tenthIncompatible() ? ", 1/10 incompatible" : ""),
					String.format("%.0f / %.0f µs", cost.p50Micros(), cost.p99Micros()),
					String.format("%.0f / %.0f µs", base.p50Micros(), base.p99Micros()),
					String.format("%.2f (≤ 1.20: %s)", cost.p50Micros() / base.p50Micros(),
							(cost.p50Micros() / base.p50Micros() <= 1.2) ? "met" : "not met"));
		}
	}

	/**
	 * "total (services + MariaDB + Redis + clients)" in ms per request.
	 */
	private static String perRequest(CpuTime cpu, double requests) {
		return String.format("%.2f (%.2f + %.2f + %.2f + %.2f)", CpuTime.msPer(cpu.total(), requests),
				CpuTime.msPer(cpu.services(), requests), CpuTime.msPer(cpu.mariaDb(), requests),
				CpuTime.msPer(cpu.redis(), requests), CpuTime.msPer(cpu.bench(), requests));
	}

	/**
	 * Closed loop on the liveness probe: the framework's own ceiling on these instances.
	 */
	static Result noOp(ServiceClient a, ServiceClient b, int clients, int seconds) throws InterruptedException {
		return Load.closedLoop(clients, Duration.ofSeconds(seconds), (call) -> {
			ServiceClient http = (call.index() % 2 == 0) ? a : b;
			Response response = http.send("GET", "/actuator/health/liveness", null, null);
			if (response.status() != 200) {
				throw new IllegalStateException("liveness " + response.status());
			}
		});
	}

	/**
	 * Closed loop of rooms: each worker has two sessions and its own topic; the first
	 * joins on one instance and waits, the second's join on the other forms the room
	 * (200, the one timed); then both leave: four requests. Even workers join first on A,
	 * odd ones on B, so both instances form rooms: the warm-up compiles the forming path
	 * on both, which the push phase then needs on A. A room that did not form is an error
	 * named by the statuses of its two joins.
	 */
	static Result rooms(ServiceClient a, ServiceClient b, int clients, int seconds) throws InterruptedException {
		String[][] sessions = new String[clients][2];
		for (int i = 0; i < clients; i++) {
			sessions[i][0] = session(a);
			sessions[i][1] = session(b);
		}
		return Load.closedLoop(clients, Duration.ofSeconds(seconds), (call) -> {
			int worker = call.index();
			String first = sessions[worker][0];
			String second = sessions[worker][1];
			ServiceClient waitsOn = (worker % 2 == 0) ? a : b;
			ServiceClient formsOn = (worker % 2 == 0) ? b : a;
			String body = "{\"topic_id\":" + (FIRST_TOPIC + worker % TOPICS) + ",\"size\":2}";
			Response waiting = waitsOn.send("POST", "/api/matching", first, body);
			call.startClock();
			Response matched = formsOn.send("POST", "/api/matching", second, body);
			call.stopClock();
			waitsOn.send("DELETE", "/api/matching", first, null);
			formsOn.send("DELETE", "/api/matching", second, null);
			if (waiting.status() != 202 || matched.status() != 200) {
				throw new IllegalStateException(waiting.status() + " then " + matched.status());
			}
		});
	}

	record PushResult(Histogram pushed, Histogram polled, double joinsPerSecond, long errors, long missed,
			List<String> slow, Histogram leadIn) {

	}

	/** A push slower than this is listed with its time into the measured phase. */
	private static final long SLOW_PUSH_MICROS = 20_000;

	/**
	 * 100 rooms/s (200 joins/s), open loop. Nine in ten rooms have a listener with an
	 * event stream open on B; one in ten a client polling every second, whose phase is
	 * random against the room's forming. The first second runs at the same rate
	 * unmeasured: the target is a latency at a steady 200 joins/s, and the first rooms
	 * pay for the push path's first use on the instances (the warm-up opens no event
	 * stream).
	 */
	static PushResult push(ServiceClient a, ServiceClient b, int seconds) throws Exception {
		int roomsPerSecond = 100;
		int leadIn = roomsPerSecond;
		int rooms = roomsPerSecond * seconds;
		BlockingQueue<String> completers = new ArrayBlockingQueue<>(leadIn + rooms + 10);
		for (int i = 0; i < leadIn + rooms + 10; i++) {
			completers.add(session(a));
		}
		BlockingQueue<Listener> listeners = new ArrayBlockingQueue<>(192);
		List<Listener> all = new ArrayList<>();
		Histogram pushed = new Histogram(60_000_000L, 3);
		Histogram polled = new Histogram(60_000_000L, 3);
		Histogram leadInPushed = new Histogram(60_000_000L, 3);
		List<String> slow = Collections.synchronizedList(new ArrayList<>());
		try {
			for (int i = 0; i < 192; i++) {
				Listener listener = Listener.open(b, session(b));
				all.add(listener);
				listeners.add(listener);
			}
			Load.OpenResult run = Load.openLoop(roomsPerSecond, Duration.ofSeconds(1), Duration.ofSeconds(seconds),
					(call) -> {
						String topic = "{\"topic_id\":" + (FIRST_TOPIC + Math.floorMod(call.index(), TOPICS))
								+ ",\"size\":2}";
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
							Response waiting = b.send("POST", "/api/matching", listener.token(), topic);
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
							long micros = Math.max(1, (listener.matchedAt() - sent) / 1_000);
							Histogram into = call.measured() ? pushed : leadInPushed;
							synchronized (into) {
								into.recordValue(micros);
							}
							if (call.measured() && micros > SLOW_PUSH_MICROS) {
								slow.add(String.format("%.1f ms at %.2f s", micros / 1e3, intoRun.toNanos() / 1e9));
							}
						}
						finally {
							b.send("DELETE", "/api/matching", listener.token(), null);
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
		String poller = session(b);
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
			long due = joined + poll * 1_000_000_000L;
			long wait = due - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			Matcher status = STATUS.matcher(b.send("GET", "/api/matching", poller, null).body());
			if (status.find() && status.group(1).equals("matched")) {
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

	record FormCost(int depth, boolean tenthIncompatible, double p50Micros, double p99Micros) {

	}

	/**
	 * A size-2 queue of the bench's own (outside the services' set of active queues, so
	 * their sweepers never touch it), with its popped records and its entries' recent
	 * partners. With a tenth incompatible, one entry in ten is a recent partner of the
	 * entry ahead of it, so a tenth of the pops find the two oldest unable to share a
	 * room and look further.
	 */
	static final class BenchQueue {

		final int depth;

		final boolean tenthIncompatible;

		final String prefix;

		String lastToken = "";

		long added;

		BenchQueue(int depth, boolean tenthIncompatible) {
			this.depth = depth;
			this.tenthIncompatible = tenthIncompatible;
			this.prefix = "bench:" + depth + (tenthIncompatible ? ":tenth:" : ":plain:");
		}

		List<String> keys() {
			return List.of(this.prefix + "queue:1:2", this.prefix + "popped", this.prefix + "entry-partners");
		}

		void add(AbstractPipeline pipeline, long[] next) {
			String token = Long.toHexString(ThreadLocalRandom.current().nextLong()) + next[0];
			long score = next[0]++;
			// a queue's member is "<token>:<join id>"; the tokens' claims live in other
			// slots
			String member = token + ":" + Long.toHexString(score);
			pipeline.zadd(keys().get(0), score, member);
			if (this.tenthIncompatible && ++this.added % 10 == 0 && !this.lastToken.isEmpty()) {
				// as enqueue.lua stores a joiner's list: "<partner id>:<until ms>"
				pipeline.hset(keys().get(2), member,
						partnerId(this.lastToken) + ":" + (System.currentTimeMillis() + 3_600_000));
			}
			this.lastToken = token;
		}

	}

	/**
	 * As the service names a recent partner: the first 16 hex digits of its token's
	 * SHA-1.
	 */
	static String partnerId(String token) {
		try {
			byte[] digest = java.security.MessageDigest.getInstance("SHA-1")
				.digest(token.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
			return java.util.HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** Fills the queue to its depth. */
	static void fill(UnifiedJedis jedis, BenchQueue queue) {
		// closing a pooled client's pipeline gives its connection back
		try (AbstractPipeline pipeline = jedis.pipelined()) {
			for (int i = 0; i < queue.depth; i++) {
				queue.add(pipeline, NEXT_SCORE);
			}
		}
	}

	/**
	 * Scores rise by one per entry from 150 s ago, so none times out during the bench.
	 */
	private static final long[] NEXT_SCORE = { System.currentTimeMillis() - 150_000 };

	/** Runs form_room.lua, topping the queue up after each pop so its depth holds. */
	static FormCost formCost(UnifiedJedis jedis, String sha, BenchQueue queue, int calls) {
		Histogram latency = new Histogram(60_000_000L, 3);
		for (int call = -200; call < calls; call++) {
			long clock = System.currentTimeMillis();
			long start = System.nanoTime();
			Object result = jedis.evalsha(sha, queue.keys(),
					List.of("2", String.valueOf(clock), String.valueOf(clock - 300_000), String.valueOf(clock - 60_000),
							String.valueOf(clock - 30_000), "500", "", "64", String.valueOf(clock - 60_000)));
			long micros = (System.nanoTime() - start) / 1_000;
			if (call >= 0) {
				latency.recordValue(Math.max(1, micros));
			}
			// {still waiting, fallback, place, rematch, timed out, then member, since,
			// partners for each of the two popped}
			if (!(result instanceof List<?> list) || list.size() < 11) {
				throw new IllegalStateException("form_room.lua formed no room at depth " + queue.depth + ": " + result);
			}
			// topped up after each pop, untimed, so the depth holds
			try (AbstractPipeline refill = jedis.pipelined()) {
				queue.add(refill, NEXT_SCORE);
				queue.add(refill, NEXT_SCORE);
			}
		}
		return new FormCost(queue.depth, queue.tenthIncompatible, latency.getValueAtPercentile(50),
				latency.getValueAtPercentile(99));
	}

	/** A client with an event stream open on an instance. */
	static final class Listener {

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

		String token() {
			return this.token;
		}

		long matchedAt() {
			return this.matchedAt;
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

	private static String session(ServiceClient http) {
		Response response = http.send("POST", "/api/sessions", null, null);
		Matcher token = TOKEN.matcher(response.body());
		if (response.status() != 201 || !token.find()) {
			throw new IllegalStateException("no session: " + response);
		}
		return token.group(1);
	}

	static void addTopics(String jdbcUrl) throws Exception {
		try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
				PreparedStatement insert = db
					.prepareStatement("INSERT IGNORE INTO topics (id, name, active) VALUES (?, ?, TRUE)")) {
			for (int i = 0; i < TOPICS; i++) {
				insert.setLong(1, FIRST_TOPIC + i);
				insert.setString(2, "bench topic " + i);
				insert.addBatch();
			}
			insert.executeBatch();
			try (Statement statement = db.createStatement()) {
				statement.execute("SELECT 1");
			}
		}
	}

}
