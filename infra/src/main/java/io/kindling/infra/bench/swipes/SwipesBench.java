package io.kindling.infra.bench.swipes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.stream.Stream;

import io.kindling.infra.bench.BenchArgs;
import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.Hs256;
import io.kindling.infra.bench.HttpConnection;
import io.kindling.infra.bench.Percentiles;
import io.kindling.infra.bench.ServiceJar;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.RedisServer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

/**
 * {@code ./kindling bench swipes [--seconds 15] [--warmup 45] [--clients 32] [--users 16384]}:
 * starts its own Redis, MariaDB and a swipe-service jar on free ports and measures
 * {@code POST /api/swipes} (70 % PASS, 28 % LIKE, 2 % SUPER_LIKE; 10 % of requests are
 * retries of an earlier request with the same Idempotency-Key) at full speed, then at
 * half that rate for latency; beside it, on the same database, a raw-JDBC loop doing the
 * plain two-transaction swipe write with the same mix (the storage ceiling). Mutual likes
 * happen because user {@code u}'s k-th swipe goes to {@code u xor k}, whose k-th swipe
 * comes back. Stops everything it started.
 */
public final class SwipesBench {

	private static final String DATABASE = "kindling_swipe";

	/** A service setting that is a driver property: the ceiling gets it too. */
	private static final String DRIVER_PROPERTY = "--spring.datasource.hikari.data-source-properties.";

	/** The JIT compiler threads' share of the service's CPU that counts as settled. */
	private static final double JIT_SETTLED = 0.05;

	/** At most this many 5 s rounds of warm-up beyond {@code --warmup}. */
	private static final int JIT_ROUNDS = 12;

	private SwipesBench() {
	}

	public static void main(String[] args) throws Exception {
		int seconds = (int) BenchArgs.longArg(args, "--seconds", 15);
		int clients = (int) BenchArgs.longArg(args, "--clients", 32);
		int warmup = (int) BenchArgs.longArg(args, "--warmup", 45);
		int users = Integer.highestOneBit((int) BenchArgs.longArg(args, "--users", 16_384));
		Path jar = ServiceJar.locate(BenchHost.root(), "swipe-service");
		Path work = Files.createTempDirectory("kindling-bench-swipes-");
		RedisServer redis = new RedisServer(work.resolve("redis"), FreePorts.pick());
		MariaDbServer mariaDb = new MariaDbServer(work.resolve("mariadb"), FreePorts.pick());
		ServiceJar service = null;
		try {
			redis.start();
			mariaDb.start();
			mariaDb.createDatabase(DATABASE);
			String secret = "swipes-bench-" + Long.toHexString(new SplittableRandom().nextLong()) + "-0123456789abcdef";
			int port = FreePorts.pick();
			// daily limits off: the bench swipes far more than a person does in a day
			List<String> settings = new ArrayList<>(List.of("--spring.data.redis.port=" + redis.port(),
					"--spring.datasource.url=" + mariaDb.jdbcUrl(DATABASE), "--kindling.security.jwt-secret=" + secret,
					"--kindling.swipe.daily-likes=0", "--kindling.swipe.daily-super-likes=0",
					"--logging.level.root=WARN"));
			// any --name=value argument is a setting for the service
			Stream.of(args).filter((arg) -> arg.startsWith("--") && arg.contains("=")).forEach(settings::add);
			service = ServiceJar.start(jar, "1g", port, settings, work.resolve("swipe-service.log"));
			service.awaitHealthy(Duration.ofSeconds(120));
			// the ceiling uses the driver settings the service runs with (its
			// application.yml, and any driver property given to this bench for it)
			StringBuilder ceilingUrl = new StringBuilder(mariaDb.jdbcUrl(DATABASE)).append(
					"&cachePrepStmts=true&prepStmtCacheSize=250&prepStmtCacheSqlLimit=2048&useLocalSessionState=true&maintainTimeStats=false");
			Stream.of(args)
				.filter((arg) -> arg.startsWith(DRIVER_PROPERTY) && arg.contains("="))
				.forEach((arg) -> ceilingUrl.append('&').append(arg.substring(DRIVER_PROPERTY.length())));
			String jdbcUrl = ceilingUrl.toString();
			// the HTTP path's users are 1..users; the JDBC loop's are offset so they
			// never meet
			long jdbcOffset = 10_000_000L;
			try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD)) {
				seedProfiles(db, 1, users);
				seedProfiles(db, jdbcOffset + 1, users);
			}
			System.out.printf("swipes bench: %,d users per side, %d clients, %d s per phase%n", users, clients,
					seconds);

			HttpLoad httpLoad = new HttpLoad(port, secret, users);
			JdbcLoad jdbcLoad = new JdbcLoad(jdbcUrl, jdbcOffset, users);
			System.out.println("warming up both...");
			// the JIT needs thousands of requests before the service runs at its real
			// speed
			httpLoad.closedLoop(clients, warmup);
			settleJit(httpLoad, clients, service.pid());
			jdbcLoad.closedLoop(clients, Math.max(3, seconds / 4));
			// the two alternate in slices, so a change in the machine's load hits both
			// alike
			String loadBefore = BenchHost.loadAverage(" ");
			Result httpMax = Result.NONE;
			Result jdbcMax = Result.NONE;
			// CPU actually spent, which a busy shared machine does not distort: the HTTP
			// path costs the service, MariaDB and Redis (not the load generator); the
			// JDBC loop costs this JVM and MariaDB
			long[] database = { mariaDb.pid() };
			long[] redisServer = { redis.pid() };
			long self = ProcessHandle.current().pid();
			// per process: the service, MariaDB, Redis, this JVM (the load generator or
			// the JDBC loop)
			long[] httpTicks = new long[4];
			long[] jdbcTicks = new long[4];
			// statements MariaDB ran, commits among them, and Redis commands
			long[] httpWork = new long[3];
			// the service's CPU by thread kind: JIT compiler, garbage collector, the rest
			long[] serviceThreads = new long[3];
			long[] jdbcWork = new long[3];
			try (Connection monitor = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
					Jedis redisMonitor = new Jedis("127.0.0.1", redis.port())) {
				for (int slice = 0; slice < 3; slice++) {
					System.out.printf("full speed, slice %d of 3: HTTP, then raw JDBC...%n", slice + 1);
					long[] before = cpuTicks(service.pid(), database, redisServer, self);
					long[] workBefore = work(monitor, redisMonitor);
					long[] threadsBefore = serviceThreadTicks(service.pid());
					httpMax = httpMax.plus(httpLoad.closedLoop(clients, Math.max(1, seconds / 3)));
					long[] between = cpuTicks(service.pid(), database, redisServer, self);
					long[] workBetween = work(monitor, redisMonitor);
					long[] threadsBetween = serviceThreadTicks(service.pid());
					for (int i = 0; i < 3; i++) {
						serviceThreads[i] += threadsBetween[i] - threadsBefore[i];
					}
					jdbcMax = jdbcMax.plus(jdbcLoad.closedLoop(clients, Math.max(1, seconds / 3)));
					long[] after = cpuTicks(service.pid(), database, redisServer, self);
					long[] workAfter = work(monitor, redisMonitor);
					for (int i = 0; i < 4; i++) {
						httpTicks[i] += between[i] - before[i];
						jdbcTicks[i] += after[i] - between[i];
					}
					for (int i = 0; i < 3; i++) {
						httpWork[i] += workBetween[i] - workBefore[i];
						jdbcWork[i] += workAfter[i] - workBetween[i];
					}
				}
			}
			long httpCpuTicks = httpTicks[0] + httpTicks[1] + httpTicks[2];
			long jdbcCpuTicks = jdbcTicks[3] + jdbcTicks[1];
			double httpCpuMs = httpCpuTicks * 10.0 / httpMax.operations();
			double jdbcCpuMs = jdbcCpuTicks * 10.0 / jdbcMax.operations();
			double halfRate = httpMax.perSecond() / 2;
			System.out.printf("HTTP at half the maximum rate (%.0f/s)...%n", halfRate);
			Result httpHalf = httpLoad.openLoop(halfRate, seconds);
			// the storage's own tail at that rate: what no service in front of it can
			// beat
			System.out.printf("raw JDBC at the same rate (%.0f/s)...%n", halfRate);
			Result jdbcHalf = jdbcLoad.openLoop(halfRate, seconds);
			String loadAfter = BenchHost.loadAverage(" ");

			System.out.println();
			System.out.printf(
					"POST /api/swipes: 70 %% PASS, 28 %% LIKE, 2 %% SUPER_LIKE, 10 %% retries (same key and payload); %d clients; %d s per row (full speed in 3 slices alternating with JDBC).%n",
					clients, seconds);
			System.out.printf(
					"Ceiling: TX 1 (INSERT .. ON DUPLICATE KEY, SELECT .. FOR UPDATE, UPDATE response_status) and, for a mutual like, TX 2 (matches, swipe_history, match_outbox), raw JDBC, same mix, same database.%n%n");
			String format = "| %-38s | %12s | %9s | %9s | %9s | %11s |%n";
			System.out.printf(format, "path", "swipes/s", "p50 ms", "p99 ms", "matches", "of ceiling");
			System.out.printf(format, "---", "---:", "---:", "---:", "---:", "---:");
			System.out.printf(format, "raw JDBC, the two transactions", rate(jdbcMax), ms(jdbcMax, 50), ms(jdbcMax, 99),
					jdbcMax.matches(), "100 %");
			System.out.printf(format, "HTTP POST /api/swipes, full speed", rate(httpMax), ms(httpMax, 50),
					ms(httpMax, 99), httpMax.matches(),
					String.format("%.0f %%", 100 * httpMax.perSecond() / jdbcMax.perSecond()));
			System.out.printf(format, String.format("HTTP at half the maximum (%.0f/s)", halfRate), rate(httpHalf),
					ms(httpHalf, 50), ms(httpHalf, 99), httpHalf.matches(), "");
			System.out.printf(format, String.format("raw JDBC at the same rate (%.0f/s)", halfRate), rate(jdbcHalf),
					ms(jdbcHalf, 50), ms(jdbcHalf, 99), jdbcHalf.matches(), "");
			int cores = Runtime.getRuntime().availableProcessors();
			System.out.printf(
					"%nCPU per swipe (not distorted by other load): raw JDBC %.2f ms (this JVM + MariaDB), HTTP %.2f ms (service + MariaDB + Redis),"
							+ " %.0f %% of the ceiling's efficiency; on %d otherwise idle cores at most %,.0f vs %,.0f swipes/s.%n",
					jdbcCpuMs, httpCpuMs, 100 * jdbcCpuMs / httpCpuMs, cores, cores * 1000 / jdbcCpuMs,
					cores * 1000 / httpCpuMs);
			System.out.printf(
					"CPU per swipe by process, HTTP: service %.2f ms, MariaDB %.2f ms, Redis %.2f ms, load generator %.2f ms; raw JDBC: loop %.2f ms, MariaDB %.2f ms.%n",
					perSwipeMs(httpTicks[0], httpMax), perSwipeMs(httpTicks[1], httpMax),
					perSwipeMs(httpTicks[2], httpMax), perSwipeMs(httpTicks[3], httpMax),
					perSwipeMs(jdbcTicks[3], jdbcMax), perSwipeMs(jdbcTicks[1], jdbcMax));
			long serviceTotal = Math.max(1, serviceThreads[0] + serviceThreads[1] + serviceThreads[2]);
			System.out.printf(
					"The service's CPU while measured: %.0f %% JIT compiler threads, %.0f %% GC threads, %.0f %% the rest (requests, I/O).%n",
					100.0 * serviceThreads[0] / serviceTotal, 100.0 * serviceThreads[1] / serviceTotal,
					100.0 * serviceThreads[2] / serviceTotal);
			System.out.printf(
					"Work per swipe: HTTP %.2f SQL statements (%.2f explicit commits), %.2f Redis commands; raw JDBC %.2f SQL statements (%.2f explicit commits).%n",
					(double) httpWork[0] / httpMax.operations(), (double) httpWork[1] / httpMax.operations(),
					(double) httpWork[2] / httpMax.operations(), (double) jdbcWork[0] / jdbcMax.operations(),
					(double) jdbcWork[1] / jdbcMax.operations());
			System.out.printf(
					"errors: HTTP %d (full) + %d (half), JDBC %d (full) + %d (half); load average before %s, after %s (%d cores)%n",
					httpMax.errors(), httpHalf.errors(), jdbcMax.errors(), jdbcHalf.errors(), loadBefore, loadAfter,
					Runtime.getRuntime().availableProcessors());
		}
		finally {
			if (service != null) {
				service.stop();
			}
			redis.close();
			mariaDb.close();
			BenchHost.deleteQuietly(work);
		}
	}

	record Result(long operations, long errors, long matches, double seconds, Histogram latency) {

		static final Result NONE = new Result(0, 0, 0, 0, new Histogram(3));

		Result plus(Result other) {
			Histogram both = this.latency.copy();
			both.add(other.latency);
			return new Result(this.operations + other.operations, this.errors + other.errors,
					this.matches + other.matches, this.seconds + other.seconds, both);
		}

		double perSecond() {
			return this.operations / this.seconds;
		}

	}

	/** What to send next: a new swipe with its own key, or a retry of an earlier one. */
	record Swipe(long userId, long targetUserId, String action, String key) {

	}

	/**
	 * Picks swipes: user u's k-th swipe goes to u xor k, so pairs swipe on each other; 10
	 * % of picks repeat a recent swipe with its key.
	 */
	static final class Mix {

		private final long firstId;

		private final int users;

		private final AtomicInteger[] swiped;

		private final AtomicReferenceArray<@Nullable Swipe> recent = new AtomicReferenceArray<>(1024);

		Mix(long firstId, int users) {
			this.firstId = firstId;
			this.users = users;
			this.swiped = new AtomicInteger[users];
			for (int i = 0; i < users; i++) {
				this.swiped[i] = new AtomicInteger();
			}
		}

		@Nullable Swipe next() {
			ThreadLocalRandom random = ThreadLocalRandom.current();
			if (random.nextInt(10) == 0) {
				Swipe retry = this.recent.get(random.nextInt(this.recent.length()));
				if (retry != null) {
					return retry;
				}
			}
			for (int attempt = 0; attempt < 100; attempt++) {
				int user = random.nextInt(this.users);
				int k = this.swiped[user].incrementAndGet();
				if (k >= this.users) {
					continue;
				}
				int roll = random.nextInt(100);
				String action = (roll < 70) ? "PASS" : (roll < 98) ? "LIKE" : "SUPER_LIKE";
				Swipe swipe = new Swipe(this.firstId + user, this.firstId + (user ^ k), action,
						UUID.randomUUID().toString());
				this.recent.set(random.nextInt(this.recent.length()), swipe);
				return swipe;
			}
			return null;
		}

	}

	/**
	 * The service over HTTP (keep-alive connections, the bench's lean client), with a
	 * real HS256 token per user.
	 */
	static final class HttpLoad {

		private final int port;

		private final String secret;

		private final Mix mix;

		private final ConcurrentHashMap<Long, String> tokens = new ConcurrentHashMap<>();

		// keep-alive connections not in use; a client takes one per request
		private final Queue<HttpConnection> idle = new ConcurrentLinkedQueue<>();

		HttpLoad(int port, String secret, int users) {
			this.port = port;
			this.secret = secret;
			this.mix = new Mix(1, users);
		}

		/** Returns whether the swipe made a match; throws on anything but 200. */
		boolean send(Swipe swipe) throws IOException {
			String token = this.tokens.computeIfAbsent(swipe.userId(), (user) -> Hs256.token(this.secret, user));
			HttpConnection connection = this.idle.poll();
			if (connection == null) {
				connection = new HttpConnection("127.0.0.1", this.port, 10_000);
			}
			HttpConnection.Response response;
			try {
				response = connection.send("POST", "/api/swipes",
						Map.of("Authorization", "Bearer " + token, "Idempotency-Key", swipe.key(), "Content-Type",
								"application/json"),
						"{\"target_user_id\":" + swipe.targetUserId() + ",\"action\":\"" + swipe.action() + "\"}");
			}
			catch (IOException ex) {
				connection.close();
				throw ex;
			}
			this.idle.add(connection);
			if (response.status() != 200) {
				throw new IOException("HTTP " + response.status() + ": " + response.body());
			}
			return response.body().contains("\"matched\":true") && response.header("Idempotent-Replayed") == null;
		}

		Result closedLoop(int clients, int seconds) throws InterruptedException {
			return SwipesBench.closedLoop(clients, seconds, this.mix, this::send);
		}

		/**
		 * Sends at a fixed rate whatever the answers take, timing each from when it was
		 * due (no coordinated omission).
		 */
		Result openLoop(double perSecond, int seconds) throws InterruptedException {
			return SwipesBench.openLoop(perSecond, seconds, this.mix, this::send);
		}

	}

	/**
	 * The plain two-transaction swipe write by raw JDBC, one connection per client: TX 1
	 * for every swipe, and TX 2 when a like finds the other side's like (known here from
	 * the loop's own memory, standing in for the Redis script).
	 */
	static final class JdbcLoad {

		private final String jdbcUrl;

		private final Mix mix;

		private final Set<String> likes = ConcurrentHashMap.newKeySet();

		private final Queue<Connection> idle = new ConcurrentLinkedQueue<>();

		private final List<Connection> opened = new ArrayList<>();

		JdbcLoad(String jdbcUrl, long offset, int users) {
			this.jdbcUrl = jdbcUrl;
			this.mix = new Mix(offset + 1, users);
		}

		Result closedLoop(int clients, int seconds) throws InterruptedException {
			try {
				return SwipesBench.closedLoop(clients, seconds, this.mix, this::swipe);
			}
			finally {
				closeConnections();
			}
		}

		/**
		 * The same transactions at a fixed rate, for the HTTP half-rate row's baseline.
		 */
		Result openLoop(double perSecond, int seconds) throws InterruptedException {
			try {
				return SwipesBench.openLoop(perSecond, seconds, this.mix, this::swipe);
			}
			finally {
				closeConnections();
			}
		}

		private void closeConnections() {
			this.idle.clear();
			synchronized (this.opened) {
				for (Connection connection : this.opened) {
					try {
						connection.close();
					}
					catch (SQLException ex) {
						// closing after the run
					}
				}
				this.opened.clear();
			}
		}

		/** A connection not in use, or a new one; a swipe holds it until it returns. */
		private Connection connection() throws SQLException {
			Connection connection = this.idle.poll();
			if (connection == null) {
				connection = DriverManager.getConnection(this.jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
				connection.setAutoCommit(false);
				synchronized (this.opened) {
					this.opened.add(connection);
				}
			}
			return connection;
		}

		boolean swipe(Swipe swipe) throws SQLException {
			Connection db = connection();
			try {
				boolean matched = swipeOn(db, swipe);
				this.idle.add(db);
				return matched;
			}
			catch (SQLException | RuntimeException ex) {
				synchronized (this.opened) {
					this.opened.remove(db);
				}
				db.close();
				throw ex;
			}
		}

		private boolean swipeOn(Connection db, Swipe swipe) throws SQLException {
			boolean like = !swipe.action().equals("PASS");
			boolean mutual = false;
			try {
				try (PreparedStatement insert = db.prepareStatement(
						"""
								INSERT INTO swipe_history (request_id, request_hash, user_id, target_user_id, action, created_at)
								VALUES (?, ?, ?, ?, ?, NOW())
								ON DUPLICATE KEY UPDATE request_id = request_id""")) {
					insert.setString(1, swipe.key());
					insert.setString(2, sha256(swipe));
					insert.setLong(3, swipe.userId());
					insert.setLong(4, swipe.targetUserId());
					insert.setString(5, swipe.action());
					insert.executeUpdate();
				}
				Integer status;
				try (PreparedStatement select = db.prepareStatement("""
						SELECT request_hash, swipe_id, target_user_id, action, response_status, match_id, matched_at,
						       created_at, undone_at
						FROM swipe_history
						WHERE user_id = ? AND request_id = ?
						FOR UPDATE""")) {
					select.setLong(1, swipe.userId());
					select.setString(2, swipe.key());
					try (ResultSet rs = select.executeQuery()) {
						rs.next();
						int value = rs.getInt("response_status");
						status = rs.wasNull() ? null : value;
					}
				}
				if (status == null) {
					if (like) {
						this.likes.add(swipe.userId() + ">" + swipe.targetUserId());
						mutual = this.likes.contains(swipe.targetUserId() + ">" + swipe.userId());
					}
					if (!mutual) {
						try (PreparedStatement finish = db.prepareStatement("""
								UPDATE swipe_history SET response_status = 0
								WHERE user_id = ? AND request_id = ? AND response_status IS NULL""")) {
							finish.setLong(1, swipe.userId());
							finish.setString(2, swipe.key());
							finish.executeUpdate();
						}
					}
				}
				db.commit();
			}
			catch (SQLException ex) {
				db.rollback();
				throw ex;
			}
			if (mutual) {
				secondTransaction(db, swipe);
			}
			return mutual;
		}

		private void secondTransaction(Connection db, Swipe swipe) throws SQLException {
			long a = swipe.userId();
			long b = swipe.targetUserId();
			try {
				try (PreparedStatement match = db.prepareStatement("""
						INSERT INTO matches (user_id_1, user_id_2, matched_at)
						VALUES (LEAST(?, ?), GREATEST(?, ?), NOW())
						ON DUPLICATE KEY UPDATE matched_at = matched_at""")) {
					match.setLong(1, a);
					match.setLong(2, b);
					match.setLong(3, a);
					match.setLong(4, b);
					match.executeUpdate();
				}
				try (PreparedStatement update = db.prepareStatement(
						"""
								UPDATE swipe_history
								SET response_status = 1,
								    match_id = (SELECT match_id FROM matches WHERE user_id_1 = LEAST(?, ?) AND user_id_2 = GREATEST(?, ?)),
								    matched_at = (SELECT matched_at FROM matches WHERE user_id_1 = LEAST(?, ?) AND user_id_2 = GREATEST(?, ?))
								WHERE user_id = ? AND request_id = ?""")) {
					for (int i = 0; i < 8; i += 2) {
						update.setLong(i + 1, a);
						update.setLong(i + 2, b);
					}
					update.setLong(9, a);
					update.setString(10, swipe.key());
					update.executeUpdate();
				}
				String key = Math.min(a, b) + ":" + Math.max(a, b);
				try (PreparedStatement outbox = db.prepareStatement("""
						INSERT INTO match_outbox (event_id, event_type, event_key, key_hash, payload, created_at)
						SELECT UUID(), 'MATCH_CREATED', ?, CRC32(?), '{}', NOW(6)
						FROM matches
						WHERE user_id_1 = LEAST(?, ?) AND user_id_2 = GREATEST(?, ?)
						ON DUPLICATE KEY UPDATE event_id = event_id""")) {
					outbox.setString(1, key);
					outbox.setString(2, key);
					outbox.setLong(3, a);
					outbox.setLong(4, b);
					outbox.setLong(5, a);
					outbox.setLong(6, b);
					outbox.executeUpdate();
				}
				db.commit();
			}
			catch (SQLException ex) {
				db.rollback();
				throw ex;
			}
		}

	}

	interface Operation {

		boolean run(Swipe swipe) throws Exception;

	}

	/**
	 * Runs swipes and counts them: latency from a given start, successes, matches, the
	 * first few errors printed.
	 */
	private static final class Tally {

		private final Recorder latency = new Recorder(3);

		private final AtomicLong done = new AtomicLong();

		private final AtomicLong errors = new AtomicLong();

		private final AtomicLong matches = new AtomicLong();

		private final long start = System.nanoTime();

		void run(Operation operation, Swipe swipe, long sinceNanos) {
			try {
				if (operation.run(swipe)) {
					this.matches.incrementAndGet();
				}
				this.latency.recordValue((System.nanoTime() - sinceNanos) / 1_000);
				this.done.incrementAndGet();
			}
			catch (Exception ex) {
				if (this.errors.incrementAndGet() <= 3) {
					System.err.println("error: " + ex);
				}
			}
		}

		Result result() {
			double elapsed = (System.nanoTime() - this.start) / 1e9;
			return new Result(this.done.get(), this.errors.get(), this.matches.get(), elapsed,
					this.latency.getIntervalHistogram());
		}

	}

	static Result closedLoop(int clients, int seconds, Mix mix, Operation operation) throws InterruptedException {
		Tally tally = new Tally();
		long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			for (int c = 0; c < clients; c++) {
				threads.submit(() -> {
					while (System.nanoTime() < end) {
						Swipe swipe = mix.next();
						if (swipe == null) {
							return;
						}
						tally.run(operation, swipe, System.nanoTime());
					}
				});
			}
		}
		return tally.result();
	}

	/**
	 * Starts a swipe every {@code 1 / perSecond} s whatever the answers take, each on its
	 * own virtual thread, timing each from when it was due (no coordinated omission).
	 */
	static Result openLoop(double perSecond, int seconds, Mix mix, Operation operation) throws InterruptedException {
		Tally tally = new Tally();
		long intervalNanos = (long) (1e9 / perSecond);
		long start = System.nanoTime();
		long end = start + TimeUnit.SECONDS.toNanos(seconds);
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			for (long due = start; due < end; due += intervalNanos) {
				long wait = due - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				Swipe swipe = mix.next();
				if (swipe == null) {
					break;
				}
				long dueAt = due;
				threads.submit(() -> tally.run(operation, swipe, dueAt));
			}
		}
		return tally.result();
	}

	private static void seedProfiles(Connection db, long firstId, int users) throws SQLException {
		Timestamp now = Timestamp.from(Instant.now());
		try (PreparedStatement insert = db.prepareStatement(
				"""
						INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
						                      age_min, age_max, max_distance_km, created_at, updated_at, last_active_at)
						VALUES (?, ?, ?, 'WOMAN,MAN,NONBINARY', '1995-05-05', 52.52, 13.405, 'u33dc0cpp', 18, 99, 100, ?, ?, ?)""")) {
			for (int i = 0; i < users; i++) {
				insert.setLong(1, firstId + i);
				insert.setString(2, "bench " + (firstId + i));
				insert.setString(3, (i % 2 == 0) ? "WOMAN" : "MAN");
				insert.setTimestamp(4, now);
				insert.setTimestamp(5, now);
				insert.setTimestamp(6, now);
				insert.addBatch();
				if (i % 1000 == 999) {
					insert.executeBatch();
				}
			}
			insert.executeBatch();
		}
	}

	static String sha256(Swipe swipe) {
		String canonical = "user_id=" + swipe.userId() + "\ntarget_user_id=" + swipe.targetUserId() + "\naction="
				+ swipe.action();
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
		}
		catch (java.security.NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Statements MariaDB has run ({@code Questions}, the monitor's own few included),
	 * explicit commits ({@code Com_commit}; a statement that commits on its own is not
	 * counted there), and Redis commands processed.
	 */
	private static long[] work(Connection monitor, Jedis redis) throws SQLException {
		long questions = 0;
		long commits = 0;
		try (Statement status = monitor.createStatement();
				ResultSet rs = status
					.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_commit')")) {
			while (rs.next()) {
				if (rs.getString(1).equalsIgnoreCase("Questions")) {
					questions = rs.getLong(2);
				}
				else {
					commits = rs.getLong(2);
				}
			}
		}
		long commands = 0;
		for (String line : redis.info("stats").split("\r?\n")) {
			if (line.startsWith("total_commands_processed:")) {
				commands = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
			}
		}
		return new long[] { questions, commits, commands };
	}

	/**
	 * Goes on warming up in 5 s rounds while the JIT compiler threads take more than
	 * {@link #JIT_SETTLED} of the service's CPU, for at most {@link #JIT_ROUNDS} rounds.
	 * A fixed warm-up left them at 6 to 24 % of it in the measured rows of different
	 * runs, and the rows with most compiling measured the slowest service: what a service
	 * that has run for a while never pays.
	 */
	private static void settleJit(HttpLoad httpLoad, int clients, long pid) throws Exception {
		for (int round = 1; round <= JIT_ROUNDS; round++) {
			long[] before = serviceThreadTicks(pid);
			httpLoad.closedLoop(clients, 5);
			long[] after = serviceThreadTicks(pid);
			long jit = after[0] - before[0];
			long all = (after[0] + after[1] + after[2]) - (before[0] + before[1] + before[2]);
			double share = (all > 0) ? (double) jit / all : 0;
			if (share <= JIT_SETTLED) {
				System.out.printf("JIT settled: %.0f %% of the service's CPU in the last 5 s (%d more rounds)%n",
						100 * share, round);
				return;
			}
			if (round == JIT_ROUNDS) {
				System.out.printf("JIT still at %.0f %% of the service's CPU after %d more rounds; measuring anyway%n",
						100 * share, round);
			}
		}
	}

	/**
	 * CPU ticks of a JVM's threads by kind, from {@code /proc/<pid>/task}: JIT compiler
	 * threads, GC threads, all others.
	 */
	private static long[] serviceThreadTicks(long pid) {
		long[] ticks = new long[3];
		try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
			for (Path task : tasks.toList()) {
				try {
					String name = Files.readString(task.resolve("comm")).strip();
					String stat = Files.readString(task.resolve("stat"));
					String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
					long used = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
					int kind = name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler") ? 0
							: name.startsWith("GC ") || name.startsWith("G1 ") ? 1 : 2;
					ticks[kind] += used;
				}
				catch (IOException | RuntimeException ex) {
					// a thread that ended meanwhile
				}
			}
		}
		catch (IOException ex) {
			// the process is gone
		}
		return ticks;
	}

	/** CPU ticks of the service, MariaDB, Redis and this JVM, in that order. */
	private static long[] cpuTicks(long service, long[] database, long[] redis, long self) {
		return new long[] { BenchHost.cpuTicks(service), BenchHost.cpuTicks(database), BenchHost.cpuTicks(redis),
				BenchHost.cpuTicks(self) };
	}

	private static double perSwipeMs(long ticks, Result result) {
		return ticks * 10.0 / result.operations();
	}

	private static String rate(Result result) {
		return String.format("%,.0f", result.perSecond());
	}

	private static String ms(Result result, double percentile) {
		return String.format("%.1f", Percentiles.ms(result.latency(), percentile));
	}

}
