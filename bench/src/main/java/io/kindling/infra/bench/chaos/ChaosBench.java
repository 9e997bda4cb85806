package io.kindling.infra.bench.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.ClusterStack;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.kafka.KafkaCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

/**
 * {@code ./kindling bench chaos}: {@code ./kindling up --cluster} on ports and a state
 * directory of its own, a mixed load through the balancer for several minutes (mutual
 * likes, and room pairs from many client addresses, 127.1.x.y), and during it one process
 * of each kind killed with SIGKILL in turn: the database's writer, a Redis primary, a
 * Kafka node, one instance of each service. After each kill, once the survivors have
 * taken over, {@code ./kindling up --cluster} starts what is missing, which rejoins its
 * cluster. Then it checks that every pair whose two likes were acknowledged has exactly
 * one match, that no session is in two conversations, and that every match is on Kafka;
 * it prints the longest stretch without a successful swipe and without a successful join
 * (target under 15 s each) and, per kind, how long until everything was served again and
 * until the process had rejoined. Exits 1 when a check fails (keeping the state directory
 * and its logs).
 *
 * <pre>
 * ./kindling bench chaos [--minutes=6] [--swipers=4] [--joiners=4] [--addresses=1000] [--dir=/var/tmp] [--keep=true]
 * </pre>
 */
public final class ChaosBench {

	/** What a client keeps retrying one call for before it gives up on it. */
	private static final Duration PATIENCE = Duration.ofSeconds(120);

	private static final Duration TARGET_GAP = Duration.ofSeconds(15);

	private final ClusterStack stack;

	private final ServiceClient matching;

	private final ServiceClient swipes;

	private final List<String> addresses;

	private final Timeline swipesServed = new Timeline();

	private final Timeline joinsServed = new Timeline();

	private final Timeline eventsSeen = new Timeline();

	/** The pairs whose two likes were both acknowledged. */
	private final Queue<long[]> acknowledgedPairs = new ConcurrentLinkedQueue<>();

	private final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();

	private final AtomicLong nextUser = new AtomicLong(
			1_000_000 + ThreadLocalRandom.current().nextLong(1_000_000_000L));

	private final AtomicInteger sessions = new AtomicInteger();

	/** The keys of every MATCH_CREATED read from kindling.matches. */
	private final Set<String> matchesOnKafka = ConcurrentHashMap.newKeySet();

	private volatile boolean loading = true;

	private final List<String> failures = new ArrayList<>();

	private ChaosBench(ClusterStack stack, int addressCount) {
		this.stack = stack;
		this.matching = new ServiceClient(stack.ports().matching(), Duration.ofSeconds(30));
		this.swipes = new ServiceClient(stack.ports().swipe(), Duration.ofSeconds(30));
		this.addresses = new ArrayList<>();
		for (int i = 0; i < addressCount; i++) {
			this.addresses.add("127.1." + (i / 250) + "." + (1 + i % 250));
		}
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		ClusterStack stack = new ClusterStack(BenchHost.root(), Path.of(options.text("--dir", "/var/tmp")), "chaos");
		ChaosBench bench = new ChaosBench(stack, (int) options.number("--addresses", 1000));
		boolean passed = bench.run(Duration.ofMinutes(options.number("--minutes", 6)),
				(int) options.number("--swipers", 4), (int) options.number("--joiners", 4));
		if (passed && !options.text("--keep", "false").equals("true")) {
			BenchHost.deleteQuietly(stack.state());
		}
		else {
			System.out.printf("state, logs and the script's output kept in %s%n", stack.state());
		}
		System.exit(passed ? 0 : 1);
	}

	private boolean run(Duration length, int swipers, int joiners) throws Exception {
		System.out.printf(
				"chaos: state %s, balancer %d (database %d); %d swipers, %d joiners from %d addresses, "
						+ "%s of load; load average %s%n",
				this.stack.state(), this.stack.ports().matching(), this.stack.ports().db(), swipers, joiners,
				this.addresses.size(), length, BenchHost.loadAverage(" / "));
		long started = System.nanoTime();
		try {
			// on a loaded machine a service may miss a start-up timeout (a Redis
			// subscription, a pool): a second up starts only what is missing, as a person
			// would
			if (this.stack.kindling(Duration.ofMinutes(20), "up", "--cluster") != 0
					&& this.stack.kindling(Duration.ofMinutes(20), "up", "--cluster") != 0) {
				this.failures.add("./kindling up --cluster failed twice");
				return false;
			}
			System.out.printf("up --cluster in %.0f s%n", seconds(System.nanoTime() - started));
			return load(length, swipers, joiners);
		}
		finally {
			this.loading = false;
			this.stack.kindling(Duration.ofMinutes(5), "down");
			System.out.printf("%n%s in all; %d failed checks%n", Duration.ofNanos(System.nanoTime() - started),
					this.failures.size());
			this.failures.forEach((failure) -> System.out.println("FAILED: " + failure));
		}
	}

	private boolean load(Duration length, int swipers, int joiners) throws Exception {
		ExecutorService threads = Executors.newCachedThreadPool();
		List<Future<?>> workers = new ArrayList<>();
		for (int i = 0; i < swipers; i++) {
			workers.add(threads.submit(this::swipeLoop));
		}
		for (int i = 0; i < joiners; i++) {
			int first = i;
			workers.add(threads.submit(() -> joinLoop(first, joiners)));
		}
		Thread consumer = Thread.ofPlatform().name("chaos-matches").daemon().start(this::consumeMatches);
		long loadStart = System.nanoTime();
		List<Victim> victims = List.of(new Victim("database writer", this::databaseWriter),
				new Victim("Redis primary", this::redisPrimary), new Victim("Kafka node", () -> "kafka-2"),
				new Victim("matching-service instance", () -> "matching-service-1"),
				new Victim("swipe-service instance", () -> "swipe-service-1"),
				new Victim("outbox-relay instance", () -> "outbox-relay-1"));
		long slot = length.toNanos() / (victims.size() + 1);
		List<Kill> kills = new ArrayList<>();
		for (int i = 0; i < victims.size(); i++) {
			sleepUntil(loadStart + (i + 1) * slot);
			kills.add(kill(victims.get(i)));
		}
		sleepUntil(loadStart + length.toNanos());
		this.loading = false;
		long loadEnd = System.nanoTime();
		for (Future<?> worker : workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		threads.shutdown();

		System.out
			.printf("%n| killed | process | served again after | rejoined after | how |%n|---|---|---|---|---|%n");
		for (Kill kill : kills) {
			System.out.printf("| %s | %s | %s | %s | %s |%n", kill.kind(), kill.name(), kill.servedAgain(),
					kill.rejoined(), kill.how());
		}
		Duration swipeGap = this.swipesServed.longestGap(loadStart, loadEnd);
		Duration joinGap = this.joinsServed.longestGap(loadStart, loadEnd);
		System.out.printf("%nlongest stretch without a successful swipe: %.1f s (%d swipes served)%n",
				swipeGap.toMillis() / 1e3, this.swipesServed.size());
		System.out.printf("longest stretch without a successful join:  %.1f s (%d joins served)%n",
				joinGap.toMillis() / 1e3, this.joinsServed.size());
		System.out.printf("answers: %s%n", new java.util.TreeMap<>(this.answers));
		check(swipeGap.compareTo(TARGET_GAP) < 0, "the longest stretch without a successful swipe is under %s",
				TARGET_GAP);
		check(joinGap.compareTo(TARGET_GAP) < 0, "the longest stretch without a successful join is under %s",
				TARGET_GAP);
		// a client over its address's limits waits for the next minute: a stretch that
		// measures the limits, not the kills
		int limited = this.answers.entrySet()
			.stream()
			.filter((answer) -> answer.getKey().endsWith(" 429"))
			.mapToInt((answer) -> answer.getValue().get())
			.sum();
		check(limited == 0, "no call was refused by the per-address limits%s",
				(limited == 0) ? "" : " (" + limited + " were: more --addresses)");
		checkState();
		consumer.interrupt();
		return this.failures.isEmpty();
	}

	// --- the kills

	private record Victim(String kind, Supplier<String> name) {

	}

	private record Kill(String kind, String name, String servedAgain, String rejoined, String how) {

	}

	/**
	 * SIGKILL, then: until swipes, joins and match events all succeed again; then
	 * {@code ./kindling up --cluster}, and until the process is back in its cluster.
	 */
	private Kill kill(Victim victim) throws Exception {
		String name = victim.name().get();
		long pid = this.stack.pidOf(name);
		ProcessHandle process = ProcessHandle.of(pid)
			.orElseThrow(() -> new IllegalStateException(name + " is not running"));
		long killed = System.nanoTime();
		process.destroyForcibly();
		process.onExit().get(10, TimeUnit.SECONDS);
		System.out.printf("%n%s: killed %s (pid %d) with SIGKILL%n", victim.kind(), name, pid);
		String servedAgain = until(Duration.ofSeconds(90), () -> this.swipesServed.after(killed)
				&& this.joinsServed.after(killed) && this.eventsSeen.after(killed), killed);
		// the survivors take over before it is started again, so that it rejoins as what
		// is left for it: a started-again primary whose replica was not yet promoted
		// would simply be the primary again
		String noticed = until(Duration.ofSeconds(60), () -> takenOver(name), killed);
		long logBefore = logSize(name);
		long restarting = System.nanoTime();
		int up = this.stack.kindling(Duration.ofMinutes(10), "up", "--cluster");
		check(up == 0, "./kindling up --cluster starts %s again", name);
		String rejoined = until(Duration.ofSeconds(180), () -> rejoined(name), restarting);
		String how = how(name, logBefore);
		System.out.printf("  served again after %s; taken over after %s; rejoined %s after up began (%s)%n",
				servedAgain, noticed, rejoined, how);
		return new Kill(victim.kind(), name, servedAgain, rejoined, how);
	}

	private String databaseWriter() {
		try (Connection connection = database("");
				Statement statement = connection.createStatement();
				ResultSet node = statement.executeQuery("SELECT @@wsrep_node_name")) {
			node.next();
			return node.getString(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("no database writer answers", ex);
		}
	}

	private String redisPrimary() {
		for (int i = 0; i < 6; i++) {
			try (Jedis jedis = new Jedis("127.0.0.1", this.stack.ports().redis() + i, 2000)) {
				if (jedis.info("replication").contains("role:master")) {
					return "redis-" + (i + 1);
				}
			}
		}
		throw new IllegalStateException("no Redis primary answers");
	}

	/**
	 * Whether the survivors have taken over from the killed process: a Redis replica
	 * promoted (three primaries answer), the Galera nodes left a cluster of two; the
	 * balancer's checks (2 s apart, two misses) and Kafka's fencing (3 s) in 5 s.
	 */
	private boolean takenOver(String name) {
		if (name.startsWith("redis-")) {
			return livePrimaries() == 3;
		}
		if (name.startsWith("mariadb-")) {
			return Stream.of("mariadb-1", "mariadb-2", "mariadb-3")
				.filter((node) -> !node.equals(name))
				.allMatch((node) -> "2".equals(galeraStatus(node, "wsrep_cluster_size")));
		}
		BenchHost.sleep(Duration.ofSeconds(5));
		return true;
	}

	private int livePrimaries() {
		int primaries = 0;
		for (int i = 0; i < 6; i++) {
			try (Jedis jedis = new Jedis("127.0.0.1", this.stack.ports().redis() + i, 2000)) {
				if (jedis.info("replication").contains("role:master")) {
					primaries++;
				}
			}
			catch (RuntimeException ex) {
				// the killed node
			}
		}
		return primaries;
	}

	private boolean rejoined(String name) {
		try {
			if (name.startsWith("mariadb-")) {
				return "4".equals(galeraStatus(name, "wsrep_local_state"))
						&& "3".equals(galeraStatus(name, "wsrep_cluster_size"));
			}
			if (name.startsWith("redis-")) {
				int port = this.stack.ports().redis() + Integer.parseInt(name.substring(name.length() - 1)) - 1;
				try (Jedis jedis = new Jedis("127.0.0.1", port, 2000)) {
					String replication = jedis.info("replication");
					return replication.contains("role:slave") && replication.contains("master_link_status:up");
				}
			}
			if (name.startsWith("kafka-")) {
				return kafkaFullyReplicated();
			}
			return true;
		}
		catch (Exception ex) {
			return false;
		}
	}

	/**
	 * A status variable of one Galera node, asked directly; empty when it does not
	 * answer.
	 */
	private String galeraStatus(String node, String variable) {
		int port = this.stack.ports().db() + 100 * Integer.parseInt(node.substring(node.length() - 1));
		try (Connection connection = DriverManager.getConnection(
				"jdbc:mysql://127.0.0.1:" + port + "/?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=2000",
				"kindling", "kindling"); Statement statement = connection.createStatement()) {
			return status(statement, variable);
		}
		catch (SQLException ex) {
			return "";
		}
	}

	private long logSize(String name) throws IOException {
		Path log = this.stack.state().resolve("logs/" + name + ".log");
		return Files.exists(log) ? Files.size(log) : 0;
	}

	/**
	 * How it rejoined: by IST or SST for a Galera node (from what its log gained since
	 * {@code from}), as a replica for Redis.
	 */
	private String how(String name, long from) throws IOException {
		if (name.startsWith("mariadb-")) {
			byte[] log = Files.readAllBytes(this.stack.state().resolve("logs/" + name + ".log"));
			String since = new String(log, (int) Math.min(from, log.length), (int) Math.max(0, log.length - from),
					StandardCharsets.UTF_8);
			return since.contains("IST received") ? "IST (the write sets it missed)"
					: since.contains("SST") ? "SST (a copy of the data dir)" : "?";
		}
		if (name.startsWith("redis-")) {
			int port = this.stack.ports().redis() + Integer.parseInt(name.substring(name.length() - 1)) - 1;
			try (Jedis jedis = new Jedis("127.0.0.1", port, 2000)) {
				return jedis.info("replication").contains("role:slave") ? "as a replica of the promoted primary"
						: "as a primary: its replica had not been promoted";
			}
		}
		if (name.startsWith("kafka-")) {
			return "caught up: every partition's replicas in sync";
		}
		return "healthy, behind the balancer";
	}

	private boolean kafkaFullyReplicated() {
		try (Admin admin = Admin.create(
				Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka(), AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
						3000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000))) {
			return KafkaCluster.fullyReplicated(admin);
		}
	}

	// --- the load

	/** New pairs, one after another: both profiles, then both likes at once. */
	private void swipeLoop() {
		ExecutorService other = Executors.newSingleThreadExecutor();
		try {
			while (this.loading) {
				long a = this.nextUser.getAndAdd(2);
				long b = a + 1;
				if (!answered(() -> profile(a, "WOMAN", "MAN")) || !answered(() -> profile(b, "MAN", "WOMAN"))) {
					continue;
				}
				Future<Boolean> aLikes = other.submit(() -> answered(() -> like(a, b)));
				boolean bLiked = answered(() -> like(b, a));
				if (aLikes.get() && bLiked) {
					this.acknowledgedPairs.add(new long[] { a, b });
				}
			}
		}
		catch (Exception ex) {
			this.failures.add("a swiper stopped: " + ex);
		}
		finally {
			other.shutdownNow();
		}
	}

	/** New sessions from the addresses in turn, each joining a room of two. */
	private void joinLoop(int first, int step) {
		int next = first;
		while (this.loading) {
			ServiceClient client = this.matching.from(this.addresses.get(next % this.addresses.size()));
			next += step;
			Response session = untilAnswered(() -> client.send(Request.of("POST", "/api/sessions").body(new byte[0])),
					"session");
			if (session == null || session.status() != 201) {
				continue;
			}
			String token = session.field("token");
			this.sessions.incrementAndGet();
			String join = "{\"topic_id\":" + (1 + next % 4) + ",\"size\":2}";
			Response joined = untilAnswered(
					() -> client.send(Request.of("POST", "/api/matching").bearer(token).json(join)), "join");
			// 409: a retried join that had gone through
			if (joined != null && (joined.status() == 200 || joined.status() == 202 || joined.status() == 409)) {
				this.joinsServed.add(System.nanoTime());
			}
		}
	}

	private Response profile(long user, String gender, String interestedIn) {
		String body = """
				{"display_name":"Chaos %d","gender":"%s","interested_in":["%s"],"birth_date":"1990-01-01",
				 "location":{"lat":52.52,"lon":13.40},"age_min":18,"age_max":99,"max_distance_km":100}"""
			.formatted(user, gender, interestedIn);
		return this.swipes.send("PUT", "/api/profile", token(user), body);
	}

	private Response like(long user, long target) {
		return this.swipes.send(Request.of("POST", "/api/swipes")
			.bearer(token(user))
			.header("Idempotency-Key", "chaos-" + user + "-" + target)
			.json("{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}"));
	}

	/**
	 * Whether the call (retried on 503) was answered 200; a like answered so is a swipe
	 * served.
	 */
	private boolean answered(Supplier<Response> call) {
		Response response = untilAnswered(call, "swipe");
		boolean ok = response != null && response.status() == 200;
		if (ok && response.body().contains("\"swipe_id\"")) {
			this.swipesServed.add(System.nanoTime());
		}
		return ok;
	}

	/**
	 * As a client honouring Retry-After: a 503 or a connection the balancer cut is sent
	 * again; null when it never got another answer.
	 */
	private @Nullable Response untilAnswered(Supplier<Response> call, String what) {
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (System.nanoTime() < deadline) {
			Response response;
			try {
				response = call.get();
			}
			catch (RuntimeException ex) {
				count(what + " I/O error");
				BenchHost.sleep(Duration.ofMillis(200));
				continue;
			}
			count(what + " " + response.status());
			if (response.status() != 503) {
				return response;
			}
			BenchHost.sleep(Duration.ofSeconds(Long.parseLong(response.header("Retry-After").orElse("1"))));
		}
		return null;
	}

	private void count(String answer) {
		this.answers.computeIfAbsent(answer, (key) -> new AtomicInteger()).incrementAndGet();
	}

	private String token(long user) {
		return Hs256.token(this.stack.jwtSecret(), user);
	}

	private void consumeMatches() {
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka(),
				ConsumerConfig.GROUP_ID_CONFIG, "chaos-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
				"earliest", ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
				ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
			consumer.subscribe(List.of("kindling.matches"));
			while (!Thread.currentThread().isInterrupted()) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					Header type = record.headers().lastHeader("event_type");
					if (type != null && new String(type.value(), StandardCharsets.UTF_8).equals("MATCH_CREATED")
							&& this.matchesOnKafka.add(record.key())) {
						this.eventsSeen.add(System.nanoTime());
					}
				}
			}
		}
		catch (org.apache.kafka.common.errors.InterruptException ex) {
			// stopped
		}
	}

	// --- the checks

	private void checkState() throws Exception {
		Set<String> acknowledged = new HashSet<>();
		for (long[] pair : this.acknowledgedPairs) {
			acknowledged.add(pair[0] + ":" + pair[1]);
		}
		Map<String, Integer> matches = new java.util.HashMap<>();
		try (Connection connection = database("kindling_swipe");
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(
						"SELECT CONCAT(user_id_1, ':', user_id_2), COUNT(*) FROM matches GROUP BY user_id_1, user_id_2")) {
			while (rows.next()) {
				matches.put(rows.getString(1), rows.getInt(2));
			}
		}
		List<String> wrong = acknowledged.stream().filter((pair) -> matches.getOrDefault(pair, 0) != 1).toList();
		check(wrong.isEmpty(), "each of the %d pairs whose two likes were acknowledged has exactly one match%s",
				acknowledged.size(),
				wrong.isEmpty() ? "" : " (not: " + wrong.subList(0, Math.min(10, wrong.size())) + ")");
		try (Connection connection = database("kindling_matching");
				Statement statement = connection.createStatement();
				ResultSet doubled = statement.executeQuery("""
						SELECT COUNT(*) FROM (SELECT participant_key FROM conversation_participants
						GROUP BY participant_key HAVING COUNT(*) > 1) twice""");
				Statement counting = connection.createStatement();
				ResultSet rooms = counting.executeQuery("SELECT COUNT(*) FROM conversations")) {
			doubled.next();
			rooms.next();
			check(doubled.getLong(1) == 0, "no session of %d is in two conversations (%d rooms formed)",
					this.sessions.get(), rooms.getLong(1));
		}
		long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
		Set<String> missing = new HashSet<>(matches.keySet());
		while (System.nanoTime() < deadline) {
			missing.removeAll(this.matchesOnKafka);
			if (missing.isEmpty()) {
				break;
			}
			BenchHost.sleep(Duration.ofMillis(500));
		}
		check(missing.isEmpty(), "every one of the %d matches is on Kafka (MATCH_CREATED)%s", matches.size(),
				missing.isEmpty() ? "" : " (" + missing.size() + " missing)");
	}

	private Connection database(String name) throws SQLException {
		return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + this.stack.ports().db() + "/" + name
				+ "?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=5000", "kindling", "kindling");
	}

	private String kafka() {
		int base = this.stack.ports().kafka();
		return "127.0.0.1:" + base + ",127.0.0.1:" + (base + 2) + ",127.0.0.1:" + (base + 4);
	}

	private static String status(Statement statement, String variable) throws SQLException {
		try (ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
			return row.next() ? row.getString(2) : "";
		}
	}

	private void check(boolean passed, String what, Object... args) {
		String line = what.formatted(args);
		System.out.printf("%s %s%n", passed ? "ok  " : "FAIL", line);
		if (!passed) {
			this.failures.add(line);
		}
	}

	/**
	 * How long from {@code since} until the condition held, or "not within" the limit.
	 */
	private static String until(Duration limit, BooleanSupplier condition, long since) {
		long deadline = System.nanoTime() + limit.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				return "not within " + limit.toSeconds() + " s";
			}
			BenchHost.sleep(Duration.ofMillis(100));
		}
		return "%.1f s".formatted(seconds(System.nanoTime() - since));
	}

	private static double seconds(long nanos) {
		return nanos / 1e9;
	}

	private static void sleepUntil(long nanoTime) {
		long left = nanoTime - System.nanoTime();
		if (left > 0) {
			BenchHost.sleep(Duration.ofNanos(left));
		}
	}

	/**
	 * When something succeeded: each success's time, to find the longest stretch without
	 * one.
	 */
	private static final class Timeline {

		private final java.util.concurrent.ConcurrentSkipListSet<Long> times = new java.util.concurrent.ConcurrentSkipListSet<>();

		void add(long nanoTime) {
			// two at the same nanosecond are one success for the gaps
			this.times.add(nanoTime);
		}

		boolean after(long nanoTime) {
			return this.times.higher(nanoTime) != null;
		}

		int size() {
			return this.times.size();
		}

		/** The longest time between two successes in [from, to], its ends included. */
		Duration longestGap(long from, long to) {
			long previous = from;
			long longest = 0;
			for (long time : this.times.subSet(from, to)) {
				longest = Math.max(longest, time - previous);
				previous = time;
			}
			return Duration.ofNanos(Math.max(longest, to - previous));
		}

	}

}
