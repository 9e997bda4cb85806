package io.kindling.infra.bench.rooms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.kindling.infra.bench.BenchArgs;
import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.ServiceJar;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.RedisServer;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

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
 * it pops from.</li>
 * </ol>
 * Stops everything it started.
 */
public final class RoomsBench {

	private static final String DATABASE = "kindling_matching";

	/** The bench adds its own topics so that concurrent pairs never meet by accident. */
	private static final int FIRST_TOPIC = 1000;

	private static final int TOPICS = 512;

	/** Rooms that did not form as expected, by the statuses of their two joins. */
	private static final ConcurrentHashMap<String, AtomicLong> FAILED_ROOMS = new ConcurrentHashMap<>();

	private static final Pattern TOKEN = Pattern.compile("\"token\":\"([^\"]+)\"");

	private static final Pattern STATUS = Pattern.compile("\"status\":\"([a-z]+)\"");

	private RoomsBench() {
	}

	public static void main(String[] args) throws Exception {
		// HttpURLConnection keeps 5 idle connections per server unless told otherwise:
		// with 32 clients the rest would open a new connection for every request
		System.setProperty("http.maxConnections", "512");
		int seconds = (int) BenchArgs.longArg(args, "--seconds", 10);
		int clients = (int) BenchArgs.longArg(args, "--clients", 32);
		// the JIT needs tens of thousands of calls of the join path before it is
		// compiled; a short warm-up measures the compiler, not the service
		int warmup = (int) BenchArgs.longArg(args, "--warmup", 60);
		Path root = BenchHost.root();
		Path jar = ServiceJar.locate(root, "matching-service");
		Path formScript = root.resolve("matching-service/src/main/resources/scripts/form_room.lua");
		Path work = Files.createTempDirectory("kindling-bench-rooms-");
		RedisServer redis = new RedisServer(work.resolve("redis"), FreePorts.pick());
		MariaDbServer mariaDb = new MariaDbServer(work.resolve("mariadb"), FreePorts.pick());
		List<ServiceJar> services = new ArrayList<>();
		// an interrupted bench (Ctrl-C) stops what it started too
		Thread cleanup = new Thread(() -> stopAll(services, redis, mariaDb, work), "rooms-bench-cleanup");
		Runtime.getRuntime().addShutdownHook(cleanup);
		try {
			redis.start();
			mariaDb.start();
			mariaDb.createDatabase(DATABASE);
			int portA = FreePorts.pick();
			int portB = FreePorts.pick();
			// any --name=value argument is a setting for both services
			List<String> tuning = Stream.of(args).filter((arg) -> arg.startsWith("--") && arg.contains("=")).toList();
			services.add(startService(jar, portA, redis, mariaDb, tuning, work.resolve("matching-a.log")));
			services.add(startService(jar, portB, redis, mariaDb, tuning, work.resolve("matching-b.log")));
			Http a = new Http(portA);
			Http b = new Http(portB);
			for (ServiceJar service : services) {
				service.awaitHealthy(Duration.ofSeconds(180));
			}
			addTopics(mariaDb.jdbcUrl(DATABASE));
			System.out.printf(
					"rooms bench: two instances (ports %d, %d), %d clients, %d s per phase, %d s warm-up; load average %s%n",
					portA, portB, clients, seconds, warmup, BenchHost.loadAverage(" / "));

			System.out.println("warming up...");
			noOp(a, b, clients, Math.max(3, warmup / 4));
			rooms(a, b, clients, Math.max(3, warmup - warmup / 4));
			// CPU each process really spent per request: the two services, MariaDB,
			// Redis, this JVM (the clients)
			long[][] pids = { services.stream().mapToLong(ServiceJar::pid).toArray(), { mariaDb.pid() },
					{ redis.pid() }, { ProcessHandle.current().pid() } };
			System.out.println("no-op endpoint at full speed...");
			long[] beforeNoOp = cpuTicks(pids);
			Throughput noOp = noOp(a, b, clients, seconds);
			long[] noOpTicks = minus(cpuTicks(pids), beforeNoOp);
			System.out.println("join -> matched at full speed...");
			long[] beforeRooms = cpuTicks(pids);
			FAILED_ROOMS.clear();
			Throughput rooms = rooms(a, b, clients, seconds);
			long[] roomsTicks = minus(cpuTicks(pids), beforeRooms);
			System.out.println("push latency at 200 joins/s, beside 1 s polling...");
			PushResult push = push(a, b, seconds);
			System.out.println("forming cost by queue depth...");
			List<FormCost> costs = new ArrayList<>();
			try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
				String sha = jedis.scriptLoad(Files.readString(formScript));
				int[] depths = { 100, 10_000, 100_000 };
				// scores from two minutes ago, one ms apart: none times out while
				// measured
				NEXT_SCORE[0] = System.currentTimeMillis() - 120_000;
				for (int depth : depths) {
					fill(jedis, depth);
				}
				// rounds alternate the depths, so a burst of other work on the machine
				// hits them alike; each depth reports its median round
				List<List<FormCost>> rounds = new ArrayList<>();
				for (int round = 0; round < 5; round++) {
					List<FormCost> thisRound = new ArrayList<>();
					for (int depth : depths) {
						thisRound.add(formCost(jedis, sha, depth, 2_000));
					}
					rounds.add(thisRound);
				}
				for (int i = 0; i < depths.length; i++) {
					int index = i;
					List<FormCost> byP50 = rounds.stream()
						.map((round) -> round.get(index))
						.sorted(Comparator.comparingDouble(FormCost::p50Micros))
						.toList();
					costs.add(byP50.get(byP50.size() / 2));
				}
			}

			System.out.println();
			System.out.printf(
					"Two matching-service instances, one Redis, one MariaDB, %d closed-loop clients, %d s per row; this 2-core machine.%n%n",
					clients, seconds);
			String format = "| %-62s | %14s | %14s | %-22s |%n";
			System.out.printf(format, "measurement", "value", "baseline", "ratio (target)");
			System.out.printf(format, "---", "---:", "---:", "---");
			double requestRatio = rooms.requestsPerSecond() / noOp.requestsPerSecond();
			System.out.printf(format, "join→matched: rooms/s (join on one, forming join on the other)",
					String.format("%,.0f rooms/s", rooms.roomsPerSecond()),
					String.format("%,.0f req/s no-op", noOp.requestsPerSecond()), "");
			System.out.printf(format, "join→matched: its requests/s vs the no-op's",
					String.format("%,.0f req/s", rooms.requestsPerSecond()),
					String.format("%,.0f req/s", noOp.requestsPerSecond()),
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
			FormCost base = costs.get(0);
			for (FormCost cost : costs) {
				System.out.printf(format,
						String.format("form_room.lua, %,d waiting: p50 / p99 (median of 5 rounds)", cost.depth()),
						String.format("%.0f / %.0f µs", cost.p50Micros(), cost.p99Micros()),
						String.format("%.0f / %.0f µs", base.p50Micros(), base.p99Micros()),
						String.format("%.2f (≤ 1.20: %s)", cost.p50Micros() / base.p50Micros(),
								(cost.p50Micros() / base.p50Micros() <= 1.2) ? "met" : "not met"));
			}
			System.out.printf(
					"%nCPU per request (ms, from /proc; not distorted by other load): no-op %s; join→matched %s (services, MariaDB, Redis, clients)%n",
					perRequest(noOpTicks, noOp), perRequest(roomsTicks, rooms));
			System.out.printf(
					"errors: no-op %d, rooms %d (statuses of the two joins: %s), push %d (missed %d); load average at the end %s%n",
					noOp.errors(), rooms.errors(), new ConcurrentSkipListMap<>(FAILED_ROOMS), push.errors(),
					push.missed(), BenchHost.loadAverage(" / "));
			System.out.printf("pushes over %d ms (time into the measured phase): %s%n", SLOW_PUSH_MICROS / 1_000,
					push.slow().isEmpty() ? "none" : String.join(", ", push.slow()));
			System.out.printf(
					"push in the unmeasured lead-in second: p50 / p99 / max %.1f / %.1f / %.1f ms (%,d rooms)%n",
					ms(push.leadIn(), 50), ms(push.leadIn(), 99), push.leadIn().getMaxValue() / 1e3,
					push.leadIn().getTotalCount());
		}
		finally {
			stopAll(services, redis, mariaDb, work);
			Runtime.getRuntime().removeShutdownHook(cleanup);
		}
	}

	private static synchronized void stopAll(List<ServiceJar> services, RedisServer redis, MariaDbServer mariaDb,
			Path work) {
		ServiceJar.stopAll(services);
		redis.close();
		mariaDb.close();
		BenchHost.deleteQuietly(work);
	}

	private static long[] cpuTicks(long[][] pids) {
		long[] ticks = new long[pids.length];
		for (int i = 0; i < pids.length; i++) {
			ticks[i] = BenchHost.cpuTicks(pids[i]);
		}
		return ticks;
	}

	private static long[] minus(long[] after, long[] before) {
		long[] difference = new long[after.length];
		for (int i = 0; i < after.length; i++) {
			difference[i] = after[i] - before[i];
		}
		return difference;
	}

	/** "total (a + b + c + d)" in ms per request, from clock ticks of 10 ms. */
	private static String perRequest(long[] ticks, Throughput throughput) {
		double requests = Math.max(1, throughput.requests());
		StringBuilder parts = new StringBuilder();
		long total = 0;
		for (long tick : ticks) {
			total += tick;
			parts.append((parts.length() == 0) ? "" : " + ").append(String.format("%.2f", tick * 10.0 / requests));
		}
		return String.format("%.2f (%s)", total * 10.0 / requests, parts);
	}

	record Throughput(long operations, long requests, long errors, double seconds, Histogram latency) {

		double requestsPerSecond() {
			return this.requests / this.seconds;
		}

		double roomsPerSecond() {
			return this.operations / this.seconds;
		}

	}

	/**
	 * Closed loop on the liveness probe: the framework's own ceiling on these instances.
	 */
	static Throughput noOp(Http a, Http b, int clients, int seconds) throws InterruptedException {
		return closedLoop(clients, seconds, (worker, latency) -> {
			Http http = (worker % 2 == 0) ? a : b;
			long start = System.nanoTime();
			Response response = http.send("GET", "/actuator/health/liveness", null, null);
			latency.recordValue(Math.max(1, (System.nanoTime() - start) / 1_000));
			return (response.status() == 200) ? new long[] { 1, 1, 0 } : new long[] { 0, 1, 1 };
		});
	}

	/**
	 * Closed loop of rooms: each worker has two sessions and its own topic; the first
	 * joins on one instance and waits, the second's join on the other forms the room
	 * (200); then both leave. Even workers join first on A, odd ones on B, so both
	 * instances form rooms: the warm-up compiles the forming path on both, which the push
	 * phase then needs on A.
	 */
	static Throughput rooms(Http a, Http b, int clients, int seconds) throws InterruptedException {
		String[][] sessions = new String[clients][2];
		for (int i = 0; i < clients; i++) {
			sessions[i][0] = a.session();
			sessions[i][1] = b.session();
		}
		return closedLoop(clients, seconds, (worker, latency) -> {
			String first = sessions[worker][0];
			String second = sessions[worker][1];
			Http waitsOn = (worker % 2 == 0) ? a : b;
			Http formsOn = (worker % 2 == 0) ? b : a;
			String body = "{\"topic_id\":" + (FIRST_TOPIC + worker % TOPICS) + ",\"size\":2}";
			Response waiting = waitsOn.send("POST", "/api/matching", first, body);
			long start = System.nanoTime();
			Response matched = formsOn.send("POST", "/api/matching", second, body);
			latency.recordValue(Math.max(1, (System.nanoTime() - start) / 1_000));
			waitsOn.send("DELETE", "/api/matching", first, null);
			formsOn.send("DELETE", "/api/matching", second, null);
			boolean ok = waiting.status() == 202 && matched.status() == 200;
			if (!ok) {
				FAILED_ROOMS.computeIfAbsent(waiting.status() + " then " + matched.status(), (key) -> new AtomicLong())
					.incrementAndGet();
			}
			return new long[] { ok ? 1 : 0, 4, ok ? 0 : 1 };
		});
	}

	interface Step {

		/**
		 * @return {operations done, requests sent, errors}
		 */
		long[] run(int worker, Histogram latency);

	}

	static Throughput closedLoop(int clients, int seconds, Step step) throws InterruptedException {
		AtomicLong operations = new AtomicLong();
		AtomicLong requests = new AtomicLong();
		AtomicLong errors = new AtomicLong();
		Histogram latency = new Histogram(60_000_000L, 3);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		long started = System.nanoTime();
		ExecutorService pool = Executors.newFixedThreadPool(clients);
		for (int i = 0; i < clients; i++) {
			int worker = i;
			pool.execute(() -> {
				Histogram mine = new Histogram(60_000_000L, 3);
				while (System.nanoTime() < deadline) {
					try {
						long[] done = step.run(worker, mine);
						operations.addAndGet(done[0]);
						requests.addAndGet(done[1]);
						errors.addAndGet(done[2]);
					}
					catch (RuntimeException ex) {
						errors.incrementAndGet();
					}
				}
				synchronized (latency) {
					latency.add(mine);
				}
			});
		}
		pool.shutdown();
		pool.awaitTermination(seconds + 60L, TimeUnit.SECONDS);
		double elapsed = (System.nanoTime() - started) / 1e9;
		return new Throughput(operations.get(), requests.get(), errors.get(), elapsed, latency);
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
	 * unmeasured, with the client's threads started beforehand: the target is a latency
	 * at a steady 200 joins/s, and the first rooms pay for the push path's first use on
	 * the instances (the warm-up opens no event stream).
	 */
	static PushResult push(Http a, Http b, int seconds) throws Exception {
		int roomsPerSecond = 100;
		int leadIn = roomsPerSecond;
		int rooms = roomsPerSecond * seconds;
		BlockingQueue<String> completers = new ArrayBlockingQueue<>(leadIn + rooms + 10);
		for (int i = 0; i < leadIn + rooms + 10; i++) {
			completers.add(a.session());
		}
		BlockingQueue<Listener> listeners = new ArrayBlockingQueue<>(192);
		List<Listener> all = new ArrayList<>();
		for (int i = 0; i < 192; i++) {
			Listener listener = new Listener(b, b.session());
			listener.open();
			all.add(listener);
			listeners.add(listener);
		}
		Histogram pushed = new Histogram(60_000_000L, 3);
		Histogram polled = new Histogram(60_000_000L, 3);
		Histogram leadInPushed = new Histogram(60_000_000L, 3);
		AtomicLong errors = new AtomicLong();
		AtomicLong missed = new AtomicLong();
		AtomicLong joins = new AtomicLong();
		List<String> slow = Collections.synchronizedList(new ArrayList<>());
		ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(256);
		pool.prestartAllCoreThreads();
		long periodNanos = 1_000_000_000L / roomsPerSecond;
		long started = System.nanoTime() + leadIn * periodNanos;
		for (int k = -leadIn; k < rooms; k++) {
			boolean measured = k >= 0;
			long due = started + k * periodNanos;
			long wait = due - System.nanoTime();
			if (wait > 0) {
				TimeUnit.NANOSECONDS.sleep(wait);
			}
			String topic = "{\"topic_id\":" + (FIRST_TOPIC + Math.floorMod(k, TOPICS)) + ",\"size\":2}";
			String completer = completers.take();
			if (Math.floorMod(k, 10) == 9) {
				pool.execute(() -> polledRoom(a, b, topic, completer, measured ? polled : new Histogram(60_000_000L, 3),
						errors, measured ? joins : new AtomicLong()));
				continue;
			}
			pool.execute(() -> {
				Listener listener = listeners.poll();
				if (listener == null) {
					missed.incrementAndGet();
					return;
				}
				try {
					CountDownLatch matched = listener.expect();
					if (b.send("POST", "/api/matching", listener.token(), topic).status() != 202) {
						errors.incrementAndGet();
						return;
					}
					long sent = System.nanoTime();
					Response completing = a.send("POST", "/api/matching", completer, topic);
					if (measured) {
						joins.addAndGet(2);
					}
					if (completing.status() != 200) {
						errors.incrementAndGet();
					}
					if (matched.await(5, TimeUnit.SECONDS)) {
						long micros = Math.max(1, (listener.matchedAt() - sent) / 1_000);
						Histogram into = measured ? pushed : leadInPushed;
						synchronized (into) {
							into.recordValue(micros);
						}
						if (measured && micros > SLOW_PUSH_MICROS) {
							slow.add(String.format("%.1f ms at %.2f s", micros / 1e3, (sent - started) / 1e9));
						}
					}
					else {
						missed.incrementAndGet();
					}
					b.send("DELETE", "/api/matching", listener.token(), null);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				catch (RuntimeException ex) {
					errors.incrementAndGet();
				}
				finally {
					listeners.add(listener);
				}
			});
		}
		pool.shutdown();
		pool.awaitTermination(60, TimeUnit.SECONDS);
		double elapsed = (System.nanoTime() - started) / 1e9;
		// the listeners' streams end when the services stop: closing one blocks on its
		// reader
		return new PushResult(pushed, polled, joins.get() / elapsed, errors.get(), missed.get(), List.copyOf(slow),
				leadInPushed);
	}

	/**
	 * A client without the push: polls every second; the room forms at a random point of
	 * its cycle.
	 */
	private static void polledRoom(Http a, Http b, String topic, String completer, Histogram polled, AtomicLong errors,
			AtomicLong joins) {
		try {
			String poller = b.session();
			long joined = System.nanoTime();
			if (b.send("POST", "/api/matching", poller, topic).status() != 202) {
				errors.incrementAndGet();
				return;
			}
			TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextInt(1_000));
			long sent = System.nanoTime();
			a.send("POST", "/api/matching", completer, topic);
			joins.addAndGet(2);
			for (int poll = 1; poll <= 5; poll++) {
				long due = joined + poll * 1_000_000_000L;
				long wait = due - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				Matcher status = STATUS.matcher(b.send("GET", "/api/matching", poller, null).body());
				if (status.find() && status.group(1).equals("matched")) {
					synchronized (polled) {
						polled.recordValue(Math.max(1, (System.nanoTime() - sent) / 1_000));
					}
					return;
				}
			}
			errors.incrementAndGet();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	record FormCost(int depth, double p50Micros, double p99Micros) {

	}

	/**
	 * Runs form_room.lua on a size-2 queue holding {@code depth} tokens, topping it up
	 * after each pop so the depth holds. The queue is the bench's own key, outside the
	 * services' set of active queues, so their sweepers never touch it.
	 */
	static void fill(Jedis jedis, int depth) {
		String prefix = "bench:" + depth + ":";
		Pipeline pipeline = jedis.pipelined();
		for (int i = 0; i < depth; i++) {
			add(pipeline, prefix, prefix + "queue:1:2", NEXT_SCORE);
		}
		pipeline.sync();
	}

	/**
	 * Scores rise by one per entry from 150 s ago, so none times out during the bench.
	 */
	private static final long[] NEXT_SCORE = { System.currentTimeMillis() - 150_000 };

	static FormCost formCost(Jedis jedis, String sha, int depth, int calls) {
		String prefix = "bench:" + depth + ":";
		String queue = prefix + "queue:1:2";
		Histogram latency = new Histogram(60_000_000L, 3);
		for (int call = -200; call < calls; call++) {
			long clock = System.currentTimeMillis();
			long start = System.nanoTime();
			Object result = jedis.evalsha(sha, List.of(queue, prefix + "popped"),
					List.of("2", String.valueOf(clock), String.valueOf(clock - 300_000), String.valueOf(clock - 60_000),
							String.valueOf(clock - 30_000), "500", ""));
			long micros = (System.nanoTime() - start) / 1_000;
			if (call >= 0) {
				latency.recordValue(Math.max(1, micros));
			}
			if (!(result instanceof List<?> list) || list.size() < 8) {
				throw new IllegalStateException("form_room.lua formed no room at depth " + depth + ": " + result);
			}
			// topped up after each pop, untimed, so the depth holds
			Pipeline refill = jedis.pipelined();
			add(refill, prefix, queue, NEXT_SCORE);
			add(refill, prefix, queue, NEXT_SCORE);
			refill.sync();
		}
		return new FormCost(depth, latency.getValueAtPercentile(50), latency.getValueAtPercentile(99));
	}

	private static void add(Pipeline pipeline, String prefix, String queue, long[] next) {
		String token = Long.toHexString(ThreadLocalRandom.current().nextLong()) + next[0];
		long score = next[0]++;
		// a queue's member is "<token>:<join id>"; the tokens' claims live in other slots
		pipeline.zadd(queue, score, token + ":" + Long.toHexString(score));
	}

	/** A client with an event stream open on an instance. */
	static final class Listener {

		private final Http http;

		private final String token;

		private final AtomicReference<CountDownLatch> matched = new AtomicReference<>(new CountDownLatch(1));

		private volatile long matchedAt;

		Listener(Http http, String token) {
			this.http = http;
			this.token = token;
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

		void open() throws Exception {
			HttpURLConnection stream = this.http.open("/api/matching/events", this.token);
			stream.setReadTimeout(0);
			BufferedReader reader = new BufferedReader(
					new InputStreamReader(stream.getInputStream(), StandardCharsets.UTF_8));
			String first = reader.readLine();
			if (!":subscribed".equals(first)) {
				throw new IllegalStateException("the event stream began with " + first);
			}
			Thread.ofPlatform().daemon().name("listener").start(() -> {
				try {
					for (String line = reader.readLine(); line != null; line = reader.readLine()) {
						if (line.equals("event:matched")) {
							this.matchedAt = System.nanoTime();
							this.matched.get().countDown();
						}
					}
				}
				catch (IOException ex) {
					// closed at the end of the phase
				}
			});
		}

	}

	record Response(int status, String body) {

	}

	/** Plain HTTP/1.1 with keep-alive, one connection per thread. */
	record Http(int port) {

		String session() {
			Response response = send("POST", "/api/sessions", null, null);
			Matcher token = TOKEN.matcher(response.body());
			if (response.status() != 201 || !token.find()) {
				throw new IllegalStateException("no session: " + response);
			}
			return token.group(1);
		}

		HttpURLConnection open(String path, @Nullable String token) throws IOException {
			HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:" + this.port + path)
				.toURL()
				.openConnection();
			connection.setConnectTimeout(5_000);
			connection.setReadTimeout(30_000);
			if (token != null) {
				connection.setRequestProperty("Authorization", "Bearer " + token);
			}
			return connection;
		}

		Response send(String method, String path, @Nullable String token, @Nullable String body) {
			try {
				HttpURLConnection connection = open(path, token);
				connection.setRequestMethod(method);
				if (body != null) {
					byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
					connection.setDoOutput(true);
					connection.setRequestProperty("Content-Type", "application/json");
					connection.setFixedLengthStreamingMode(bytes.length);
					try (OutputStream out = connection.getOutputStream()) {
						out.write(bytes);
					}
				}
				int status = connection.getResponseCode();
				InputStream in = (status >= 400) ? connection.getErrorStream() : connection.getInputStream();
				String text = "";
				if (in != null) {
					try (in) {
						text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
					}
				}
				return new Response(status, text);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(method + " " + path, ex);
			}
		}

	}

	private static ServiceJar startService(Path jar, int port, RedisServer redis, MariaDbServer mariaDb,
			List<String> tuning, Path log) throws IOException {
		// rate limits off: the bench is one address joining far more than a person does
		List<String> settings = new ArrayList<>(List.of("--spring.data.redis.port=" + redis.port(),
				"--spring.datasource.url=" + mariaDb.jdbcUrl(DATABASE),
				"--kindling.matching.rate-limit.joins-per-minute=0",
				"--kindling.matching.rate-limit.sessions-per-minute=0", "--logging.level.root=WARN"));
		settings.addAll(tuning);
		return ServiceJar.start(jar, "512m", port, settings, log);
	}

	private static void addTopics(String jdbcUrl) throws Exception {
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
