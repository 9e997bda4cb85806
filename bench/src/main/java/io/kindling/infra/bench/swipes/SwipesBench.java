package io.kindling.infra.bench.swipes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.JvmCpu;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code ./kindling bench swipes [--seconds 15] [--warmup 45] [--clients 32] [--users 16384]}:
 * starts its own Redis, MariaDB and a swipe-service jar on free ports and measures
 * {@code POST /api/swipes} (70 % PASS, 28 % LIKE, 2 % SUPER_LIKE; 10 % of requests are
 * retries of an earlier request with the same Idempotency-Key) at full speed, then at
 * half that rate for latency; beside it, on the same database, a raw-JDBC loop doing the
 * plain two-transaction swipe write with the same mix (the storage ceiling). Mutual likes
 * happen because user {@code u}'s k-th swipe goes to {@code u xor k}, whose k-th swipe
 * comes back. Stops everything it started.
 *
 * <p>
 * With {@code --redis cluster} (or {@code sentinel}) it measures that mode beside a
 * single Redis instead, in one run ({@link BesideStandalone}).
 */
public final class SwipesBench {

	static final String DATABASE = "kindling_swipe";

	/** A service setting that is a driver property: the ceiling gets it too. */
	private static final String DRIVER_PROPERTY = "--spring.datasource.hikari.data-source-properties.";

	/** The JIT compiler threads' share of the service's CPU that counts as settled. */
	private static final double JIT_SETTLED = 0.05;

	/** At most this many 5 s rounds of warm-up beyond {@code --warmup}. */
	private static final int JIT_ROUNDS = 12;

	private SwipesBench() {
	}

	/** What the operations count: swipes that made a match. */
	private static final String MATCHES = "matches";

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int seconds = (int) options.number("--seconds", 15);
		int clients = (int) options.number("--clients", 32);
		int warmup = (int) options.number("--warmup", 45);
		int users = Integer.highestOneBit((int) options.number("--users", 16_384));
		if (options.redis() != BenchRedis.Mode.STANDALONE) {
			BesideStandalone.run(options, options.redis(), seconds, clients, warmup, users);
			return;
		}
		try (BenchStack stack = BenchStack.of("swipes", options).redis().mariaDb(DATABASE).start()) {
			String secret = Hs256.newSecret();
			List<String> settings = new ArrayList<>(serviceSettings(secret));
			// any --name=value argument is a setting for the service
			settings.addAll(options.settings());
			ServiceJar service = stack.startService("swipe-service", "1g", "swipe-service.log", settings);
			// the ceiling uses the driver settings the service runs with (its
			// application.yml, and any driver property given to this bench for it)
			StringBuilder ceilingUrl = new StringBuilder(stack.jdbcUrl(DATABASE)).append(
					"&cachePrepStmts=true&prepStmtCacheSize=250&prepStmtCacheSqlLimit=2048&useLocalSessionState=true&maintainTimeStats=false");
			options.settings()
				.stream()
				.filter((arg) -> arg.startsWith(DRIVER_PROPERTY))
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

			HttpLoad httpLoad = new HttpLoad(service.port(), secret, users);
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
			CpuTime httpCpu = CpuTime.NONE;
			CpuTime jdbcCpu = CpuTime.NONE;
			// statements MariaDB ran, commits among them, and Redis commands
			Work httpWork = Work.NONE;
			Work jdbcWork = Work.NONE;
			// the service's CPU by thread kind
			JvmCpu serviceThreads = JvmCpu.NONE;
			UnifiedJedis redisMonitor = stack.redis().client();
			try (Connection monitor = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER,
					MariaDbServer.PASSWORD)) {
				for (int slice = 0; slice < 3; slice++) {
					System.out.printf("full speed, slice %d of 3: HTTP, then raw JDBC...%n", slice + 1);
					CpuTime before = stack.cpu();
					Work workBefore = Work.of(monitor, redisMonitor);
					JvmCpu threadsBefore = JvmCpu.of(service.pid());
					httpMax = httpMax.plus(httpLoad.closedLoop(clients, Math.max(1, seconds / 3)));
					CpuTime between = stack.cpu();
					Work workBetween = Work.of(monitor, redisMonitor);
					serviceThreads = serviceThreads.plus(JvmCpu.of(service.pid()).minus(threadsBefore));
					jdbcMax = jdbcMax.plus(jdbcLoad.closedLoop(clients, Math.max(1, seconds / 3)));
					CpuTime after = stack.cpu();
					Work workAfter = Work.of(monitor, redisMonitor);
					httpCpu = httpCpu.plus(between.minus(before));
					jdbcCpu = jdbcCpu.plus(after.minus(between));
					httpWork = httpWork.plus(workBetween.minus(workBefore));
					jdbcWork = jdbcWork.plus(workAfter.minus(workBetween));
				}
			}
			double httpCpuMs = CpuTime.msPer(httpCpu.services().plus(httpCpu.mariaDb()).plus(httpCpu.redis()),
					httpMax.operations());
			double jdbcCpuMs = CpuTime.msPer(jdbcCpu.bench().plus(jdbcCpu.mariaDb()), jdbcMax.operations());
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
					jdbcMax.count(MATCHES), "100 %");
			System.out.printf(format, "HTTP POST /api/swipes, full speed", rate(httpMax), ms(httpMax, 50),
					ms(httpMax, 99), httpMax.count(MATCHES),
					String.format("%.0f %%", 100 * httpMax.perSecond() / jdbcMax.perSecond()));
			System.out.printf(format, String.format("HTTP at half the maximum (%.0f/s)", halfRate), rate(httpHalf),
					ms(httpHalf, 50), ms(httpHalf, 99), httpHalf.count(MATCHES), "");
			System.out.printf(format, String.format("raw JDBC at the same rate (%.0f/s)", halfRate), rate(jdbcHalf),
					ms(jdbcHalf, 50), ms(jdbcHalf, 99), jdbcHalf.count(MATCHES), "");
			int cores = Runtime.getRuntime().availableProcessors();
			System.out.printf(
					"%nCPU per swipe (not distorted by other load): raw JDBC %.2f ms (this JVM + MariaDB), HTTP %.2f ms (service + MariaDB + Redis),"
							+ " %.0f %% of the ceiling's efficiency; on %d otherwise idle cores at most %,.0f vs %,.0f swipes/s.%n",
					jdbcCpuMs, httpCpuMs, 100 * jdbcCpuMs / httpCpuMs, cores, cores * 1000 / jdbcCpuMs,
					cores * 1000 / httpCpuMs);
			System.out.printf(
					"CPU per swipe by process, HTTP: service %.2f ms, MariaDB %.2f ms, Redis %.2f ms, load generator %.2f ms; raw JDBC: loop %.2f ms, MariaDB %.2f ms.%n",
					CpuTime.msPer(httpCpu.services(), httpMax.operations()),
					CpuTime.msPer(httpCpu.mariaDb(), httpMax.operations()),
					CpuTime.msPer(httpCpu.redis(), httpMax.operations()),
					CpuTime.msPer(httpCpu.bench(), httpMax.operations()),
					CpuTime.msPer(jdbcCpu.bench(), jdbcMax.operations()),
					CpuTime.msPer(jdbcCpu.mariaDb(), jdbcMax.operations()));
			double serviceTotal = Math.max(1, serviceThreads.total().toNanos());
			System.out.printf(
					"The service's CPU while measured: %.0f %% JIT compiler threads, %.0f %% GC threads, %.0f %% the rest (requests, I/O).%n",
					100.0 * serviceThreads.jit().toNanos() / serviceTotal,
					100.0 * serviceThreads.gc().toNanos() / serviceTotal,
					100.0 * serviceThreads.rest().toNanos() / serviceTotal);
			System.out.printf(
					"Work per swipe: HTTP %.2f SQL statements (%.2f explicit commits), %.2f Redis commands; raw JDBC %.2f SQL statements (%.2f explicit commits).%n",
					(double) httpWork.statements() / httpMax.operations(),
					(double) httpWork.commits() / httpMax.operations(),
					(double) httpWork.redisCommands() / httpMax.operations(),
					(double) jdbcWork.statements() / jdbcMax.operations(),
					(double) jdbcWork.commits() / jdbcMax.operations());
			System.out.printf(
					"errors: HTTP %d (full) + %d (half), JDBC %d (full) + %d (half); load average before %s, after %s (%d cores)%n",
					httpMax.errors(), httpHalf.errors(), jdbcMax.errors(), jdbcHalf.errors(), loadBefore, loadAfter,
					Runtime.getRuntime().availableProcessors());
		}
	}

	/** The service's settings for a bench: daily limits off, quiet logs. */
	static List<String> serviceSettings(String secret) {
		// the bench swipes far more than a person does in a day
		return List.of("--kindling.security.jwt-secret=" + secret, "--kindling.swipe.daily-likes=0",
				"--kindling.swipe.daily-super-likes=0", "--logging.level.root=WARN");
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

		private final ServiceClient http;

		private final String secret;

		private final Mix mix;

		private final ConcurrentHashMap<Long, String> tokens = new ConcurrentHashMap<>();

		HttpLoad(int port, String secret, int users) {
			this.http = new ServiceClient(port, Duration.ofSeconds(10));
			this.secret = secret;
			this.mix = new Mix(1, users);
		}

		/** Returns whether the swipe made a match; throws on anything but 200. */
		boolean send(Swipe swipe) throws IOException {
			String token = this.tokens.computeIfAbsent(swipe.userId(), (user) -> Hs256.token(this.secret, user));
			Response response = this.http.sendOrThrow(Request.of("POST", "/api/swipes")
				.bearer(token)
				.header("Idempotency-Key", swipe.key())
				.json("{\"target_user_id\":" + swipe.targetUserId() + ",\"action\":\"" + swipe.action() + "\"}"));
			if (response.status() != 200) {
				throw new IOException("HTTP " + response.status() + ": " + response.body());
			}
			return response.body().contains("\"matched\":true") && response.header("Idempotent-Replayed").isEmpty();
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

		/** Returns whether the swipe made a match. */
		boolean run(Swipe swipe) throws Exception;

	}

	static Result closedLoop(int clients, int seconds, Mix mix, Operation operation) throws InterruptedException {
		return Load.closedLoop(clients, Duration.ofSeconds(seconds), (call) -> swipe(call, mix, operation));
	}

	/**
	 * Starts a swipe every {@code 1 / perSecond} s whatever the answers take, timing each
	 * from when it was due (no coordinated omission).
	 */
	static Result openLoop(double perSecond, int seconds, Mix mix, Operation operation) throws InterruptedException {
		return Load.openLoop(perSecond, Duration.ofSeconds(seconds), (call) -> swipe(call, mix, operation));
	}

	private static void swipe(Load.Call call, Mix mix, Operation operation) throws Exception {
		Swipe swipe = mix.next();
		if (swipe == null) {
			call.finish();
		}
		else if (operation.run(swipe)) {
			call.count(MATCHES);
		}
	}

	/**
	 * Profiles {@code firstId} to {@code firstId + users - 1}, all in one place and open
	 * to everyone, written straight to the table (the push bench seeds its users so too).
	 */
	public static void seedProfiles(Connection db, long firstId, int users) throws SQLException {
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
	 * Work the stores have done so far.
	 *
	 * @param statements statements MariaDB has run ({@code Questions}, the monitor's own
	 * few included)
	 * @param commits explicit commits ({@code Com_commit}; a statement that commits on
	 * its own is not counted there)
	 * @param redisCommands Redis commands processed
	 */
	record Work(long statements, long commits, long redisCommands) {

		static final Work NONE = new Work(0, 0, 0);

		static Work of(Connection monitor, UnifiedJedis redis) throws SQLException {
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
			return new Work(questions, commits, commands);
		}

		Work minus(Work earlier) {
			return new Work(this.statements - earlier.statements, this.commits - earlier.commits,
					this.redisCommands - earlier.redisCommands);
		}

		Work plus(Work other) {
			return new Work(this.statements + other.statements, this.commits + other.commits,
					this.redisCommands + other.redisCommands);
		}

	}

	/**
	 * Goes on warming up in 5 s rounds while the JIT compiler threads take more than
	 * {@link #JIT_SETTLED} of the service's CPU, for at most {@link #JIT_ROUNDS} rounds.
	 * A fixed warm-up left them at 6 to 24 % of it in the measured rows of different
	 * runs, and the rows with most compiling measured the slowest service: what a service
	 * that has run for a while never pays.
	 */
	static void settleJit(HttpLoad httpLoad, int clients, long pid) throws Exception {
		for (int round = 1; round <= JIT_ROUNDS; round++) {
			JvmCpu before = JvmCpu.of(pid);
			httpLoad.closedLoop(clients, 5);
			double share = JvmCpu.of(pid).minus(before).jitShare();
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

	private static String rate(Result result) {
		return String.format("%,.0f", result.perSecond());
	}

	private static String ms(Result result, double percentile) {
		return String.format("%.1f", result.ms(percentile));
	}

}
