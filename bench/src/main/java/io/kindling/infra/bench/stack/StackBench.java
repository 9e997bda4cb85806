package io.kindling.infra.bench.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.RedisServer;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@code ./kindling bench stack}: the drill of {@code ./kindling up --cluster}, end to
 * end, on ports and a state directory of its own. It starts the cluster stack as a user
 * would, forms a room and makes a match through the balancer, kills (SIGKILL) the Redis
 * primary that holds the room queue's slot, and checks that joins and swipes on that slot
 * answer again once its replica is promoted, with nothing formed before the kill lost and
 * no caller ever given anything but a 2xx or a 503. Then {@code ./kindling down}, after
 * which nothing it started may run or listen. Prints each check and how long each step
 * took; exits 1 when a check fails (keeping the state directory and its logs).
 */
public final class StackBench {

	/** What {@code ./kindling up --cluster} starts, by the name its pid file has. */
	private static final Set<String> STARTED = Set.of("redis-1", "redis-2", "redis-3", "redis-4", "redis-5", "redis-6",
			"mariadb", "kafka", "matching-service-1", "matching-service-2", "swipe-service-1", "swipe-service-2",
			"outbox-relay-1", "outbox-relay-2", "balancer", "web-client");

	/**
	 * The topic and room size every join of the drill uses; the killed primary holds its
	 * queue.
	 */
	private static final long TOPIC = 1;

	private static final int SIZE = 2;

	private static final Duration FAILOVER_DEADLINE = Duration.ofSeconds(90);

	private final Path root;

	private final Path state;

	private final Ports ports;

	private final ServiceClient matching;

	private final ServiceClient swipes;

	private final SplittableRandom random = new SplittableRandom();

	private final List<String> failures = new ArrayList<>();

	private int checks;

	private StackBench(Path root, Path state, Ports ports) {
		this.root = root;
		this.state = state;
		this.ports = ports;
		this.matching = new ServiceClient(ports.matching(), Duration.ofSeconds(30));
		this.swipes = new ServiceClient(ports.swipe(), Duration.ofSeconds(30));
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		Path root = BenchHost.root();
		// under /var/tmp: MariaDB, run as the mysql user when we are root, must reach its
		// data dir
		Path state = Files.createTempDirectory(Path.of(options.text("--dir", "/var/tmp")), "kindling-stack-drill-");
		StackBench drill = new StackBench(root, state, Ports.free());
		boolean passed = drill.run();
		if (passed && !options.text("--keep", "false").equals("true")) {
			BenchHost.deleteQuietly(state);
		}
		else {
			System.out.printf("state, logs and the script's output kept in %s%n", state);
		}
		System.exit(passed ? 0 : 1);
	}

	private boolean run() throws Exception {
		System.out.printf("up --cluster drill: state %s, Redis %d-%d, balancer %d/%d/%d; load average %s%n", this.state,
				this.ports.redis(), this.ports.redis() + 5, this.ports.matching(), this.ports.swipe(),
				this.ports.relay(), BenchHost.loadAverage(" / "));
		long started = System.nanoTime();
		Map<String, Long> pids = Map.of();
		try {
			int up = kindling(Duration.ofMinutes(15), "up", "--cluster");
			check(up == 0, "./kindling up --cluster exits 0 (it took %s)", since(started));
			if (up != 0) {
				return false;
			}
			pids = pids();
			check(pids.keySet().equals(STARTED),
					"16 processes started (6 Redis, MariaDB, Kafka, 6 services, the balancer, the web client): %s",
					new TreeSet<>(pids.keySet()));
			drill();
		}
		catch (RuntimeException | AssertionError ex) {
			check(false, "the drill ran to its end: %s", ex);
		}
		finally {
			long down = System.nanoTime();
			int exit = kindling(Duration.ofMinutes(5), "down");
			check(exit == 0, "./kindling down exits 0 (it took %s)", since(down));
			nothingLeft(pids);
		}
		System.out.printf("%n%d checks, %d failed; %s in all%n", this.checks, this.failures.size(), since(started));
		this.failures.forEach((failure) -> System.out.println("FAILED: " + failure));
		return this.failures.isEmpty();
	}

	private void drill() throws Exception {
		// a room and a match through the balancer
		String a = session();
		String b = session();
		Response joinA = join(a);
		Response joinB = join(b);
		check(joinA.status() == 202 && joinB.status() == 200, "two joins through the balancer form a room (%d, %d)",
				joinA.status(), joinB.status());
		String room = roomOf(a);
		check(!room.isEmpty() && room.equals(roomOf(b)), "both sessions are in room %s", room);
		long[] before = pairOn(this.ports.redis(), -1);
		check(match(before[0], before[1]), "a mutual like through the balancer is a match (users %d, %d)", before[0],
				before[1]);
		String balancerLog = Files.readString(this.state.resolve("logs/balancer.log"));
		for (String service : List.of("matching-service", "swipe-service")) {
			check(balancerLog.contains(service + "/" + service + "-1")
					&& balancerLog.contains(service + "/" + service + "-2"),
					"the balancer sent %s requests to both its instances", service);
		}

		// the primary holding the queue's slot, and its replica, caught up before the
		// kill
		int queueSlot = JedisClusterCRC16.getSlot("{" + TOPIC + ":" + SIZE + "}");
		ClusterNodes nodes = ClusterNodes.read(this.ports.redis());
		ClusterNodes.Node primary = nodes.primaryOf(queueSlot);
		ClusterNodes.Node replica = nodes.replicaOf(primary);
		RedisServer.awaitReplicated(primary.port(), Duration.ofSeconds(10));
		String waiting = session();
		String partner = session();
		long pid = pidOf("redis-" + (primary.port() - this.ports.redis() + 1));
		ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
		long killed = System.nanoTime();
		process.destroyForcibly();
		FreePorts.await("redis on " + primary.port() + " to die", Duration.ofSeconds(10),
				() -> !process.isAlive() && !FreePorts.isOpen(primary.port()));
		check(!process.isAlive(), "the primary of slot %d (port %d, pid %d) is killed (SIGKILL)", queueSlot,
				primary.port(), pid);

		// joins on that slot are held or answer 503 until the replica is promoted, then
		// work; a join refused between its two steps (claim, then entry) is taken whole
		// when retried
		List<Integer> statuses = new ArrayList<>();
		Response joined = untilAnswered(() -> join(waiting), statuses);
		Duration joinsBack = Duration.ofNanos(System.nanoTime() - killed);
		check(joined.status() == 202,
				"a join on that slot is answered %d, %d ms after the kill (%d answers of 503 before it)",
				joined.status(), joinsBack.toMillis(), statuses.size());
		check(statuses.stream().allMatch((status) -> status == 503), "every refused join was a 503: %s",
				statuses.stream().distinct().toList());
		FreePorts.await("the replica to hold the slot", FAILOVER_DEADLINE, () -> {
			try {
				return ClusterNodes.read(replica.port()).primaryOf(queueSlot).port() == replica.port();
			}
			catch (RuntimeException ex) {
				return false;
			}
		});
		check(true, "the replica (port %d) now holds slot %d as primary, %d ms after the kill", replica.port(),
				queueSlot, Duration.ofNanos(System.nanoTime() - killed).toMillis());
		Response partnered = untilAnswered(() -> join(partner), new ArrayList<>());
		String newRoom = roomOf(waiting);
		check(partnered.status() == 200 && !newRoom.isEmpty() && newRoom.equals(roomOf(partner)),
				"the next join forms a room on the promoted replica (%d, room %s)", partnered.status(), newRoom);
		check(room.equals(roomOf(a)) && room.equals(roomOf(b)), "the room formed before the kill is still theirs");

		// swipes on a pair whose key hashes to the same (now promoted) slot range
		List<Integer> swipeStatuses = new ArrayList<>();
		long[] pair = pairOn(replica.port(), queueSlot);
		check(match(pair[0], pair[1], swipeStatuses),
				"a mutual like on a key of the failed-over slots is a match " + "(users %d, %d; %d answered 503 first)",
				pair[0], pair[1], swipeStatuses.size());
		check(matchCount(pair[0]) == 1 && matchCount(before[0]) == 1,
				"each mutual pair, before and after the kill, has exactly one match");
		// the service may hold a request while its client waits for the new primary, or
		// refuse it
		System.out.printf(
				"    the first join on the killed primary's slot was answered %d ms after the kill, "
						+ "after %d refusals (503); the replica took over slot %d%n",
				joinsBack.toMillis(), statuses.size(), queueSlot);
	}

	// --- the stack's processes

	private int kindling(Duration timeout, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(this.root.resolve("kindling").toString()));
		command.addAll(List.of(args));
		Path log = this.state.resolve("drill-" + args[0] + ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.root.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		builder.environment().keySet().removeIf((name) -> name.startsWith("KINDLING_"));
		builder.environment().putAll(this.ports.environment(this.state));
		Process process = builder.start();
		if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			System.out.printf("./kindling %s did not end within %s; see %s%n", String.join(" ", args), timeout, log);
			return -1;
		}
		if (process.exitValue() != 0) {
			List<String> lines = Files.readAllLines(log);
			lines.subList(Math.max(0, lines.size() - 20), lines.size())
				.forEach((line) -> System.out.println("  | " + line));
		}
		return process.exitValue();
	}

	/** Every pid file the script keeps, by name. */
	private Map<String, Long> pids() throws IOException {
		Map<String, Long> pids = new TreeMap<>();
		try (Stream<Path> files = Files.list(this.state.resolve("run"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".pid")).toList()) {
				String name = file.getFileName().toString().replaceFirst("\\.pid$", "");
				pids.put(name, Long.parseLong(Files.readString(file).strip()));
			}
		}
		return pids;
	}

	private long pidOf(String name) throws IOException {
		return Long.parseLong(Files.readString(this.state.resolve("run/" + name + ".pid")).strip());
	}

	/**
	 * After down: none of the pids alive, none of the ports listening, no process naming
	 * the state dir.
	 */
	private void nothingLeft(Map<String, Long> pids) throws IOException {
		List<String> alive = pids.entrySet()
			.stream()
			.filter((entry) -> ProcessHandle.of(entry.getValue()).map(ProcessHandle::isAlive).orElse(false))
			.map(Map.Entry::getKey)
			.toList();
		check(alive.isEmpty(), "after down, none of the %d started processes runs: %s", pids.size(), alive);
		List<Integer> listening = this.ports.all().stream().filter(FreePorts::isOpen).toList();
		check(listening.isEmpty(), "after down, none of the stack's %d ports listens: %s", this.ports.all().size(),
				listening);
		List<String> naming = new ArrayList<>();
		try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
			for (Path dir : processes.filter((path) -> path.getFileName().toString().matches("\\d+")).toList()) {
				String commandLine = commandLine(dir);
				if (commandLine.contains(this.state.toString()) && !commandLine.contains(StackBench.class.getName())) {
					naming.add(dir.getFileName() + " " + commandLine.substring(0, Math.min(120, commandLine.length())));
				}
			}
		}
		check(naming.isEmpty(), "after down, no process names the state directory (Kafka's nodes included): %s",
				naming);
	}

	private static String commandLine(Path dir) {
		try {
			return new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
		}
		catch (IOException ex) {
			return "";
		}
	}

	// --- Redis Cluster

	/**
	 * Two new user ids whose match key hashes to a slot of the primary that holds
	 * {@code slot} ({@code -1}: any), as the node on {@code port} sees the cluster.
	 */
	private long[] pairOn(int port, int slot) {
		ClusterNodes nodes = ClusterNodes.read(port);
		ClusterNodes.@Nullable Node owner = (slot < 0) ? null : nodes.primaryOf(slot);
		while (true) {
			long user = 1_000_000 + this.random.nextLong(1_000_000_000L);
			int pairSlot = JedisClusterCRC16.getSlot("match_pair:{" + user + ":" + (user + 1) + "}");
			if (owner == null || nodes.primaryOf(pairSlot).port() == owner.port()) {
				return new long[] { user, user + 1 };
			}
		}
	}

	// --- the API, through the balancer

	private String session() {
		Response created = untilAnswered(() -> this.matching.send("POST", "/api/sessions", null, null),
				new ArrayList<>());
		if (created.status() != 201) {
			throw new AssertionError("POST /api/sessions answered " + created.status() + ": " + created.body());
		}
		return created.field("token");
	}

	private Response join(String token) {
		return this.matching.send("POST", "/api/matching", token, "{\"topic_id\":" + TOPIC + ",\"size\":" + SIZE + "}");
	}

	private String roomOf(String token) {
		Response status = untilAnswered(() -> this.matching.get("/api/matching", token), new ArrayList<>());
		return status.field("status").equals("matched") ? status.field("room_id") : "";
	}

	private boolean match(long first, long second) {
		return match(first, second, new ArrayList<>());
	}

	/** Both profiles, then each likes the other: the second like must be the match. */
	private boolean match(long first, long second, List<Integer> refused) {
		profile(first, "WOMAN", "MAN", refused);
		profile(second, "MAN", "WOMAN", refused);
		Response one = like(first, second, refused);
		Response other = like(second, first, refused);
		return one.status() == 200 && one.body().contains("\"matched\":false") && other.status() == 200
				&& other.body().contains("\"matched\":true");
	}

	private void profile(long user, String gender, String interestedIn, List<Integer> refused) {
		String body = """
				{"display_name":"Drill %d","gender":"%s","interested_in":["%s"],"birth_date":"1990-01-01",
				 "location":{"lat":52.52,"lon":13.40},"age_min":18,"age_max":99,"max_distance_km":100}"""
			.formatted(user, gender, interestedIn);
		Response answer = untilAnswered(() -> this.swipes.send("PUT", "/api/profile", token(user), body), refused);
		if (answer.status() != 200) {
			throw new AssertionError("PUT /api/profile answered " + answer.status() + ": " + answer.body());
		}
	}

	private Response like(long user, long target, List<Integer> refused) {
		String key = UUID.randomUUID().toString();
		// the same Idempotency-Key on every try: a retry after a 503 is the same swipe
		return untilAnswered(() -> this.swipes.send("POST", "/api/swipes", token(user),
				"{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}", "Idempotency-Key", key), refused);
	}

	private int matchCount(long user) {
		Response matches = untilAnswered(() -> this.swipes.get("/api/matches?limit=20", token(user)),
				new ArrayList<>());
		return matches.json().get("matches").size();
	}

	private String token(long user) {
		// the secret ./kindling up made for this stack
		try {
			return Hs256.token(Files.readString(this.state.resolve("jwt-secret")).strip(), user);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends until the answer is not a 503, as a client honouring Retry-After would; every
	 * 503 is recorded. Fails on an I/O error or a stack that stays unavailable.
	 */
	private static Response untilAnswered(java.util.function.Supplier<Response> call, List<Integer> refused) {
		long deadline = System.nanoTime() + FAILOVER_DEADLINE.toNanos();
		while (true) {
			Response response = call.get();
			if (response.status() != 503) {
				if (response.status() >= 500) {
					throw new AssertionError("a caller got " + response.status() + ": " + response.body());
				}
				return response;
			}
			refused.add(response.status());
			if (System.nanoTime() > deadline) {
				throw new AssertionError("still 503 after " + FAILOVER_DEADLINE.toSeconds() + " s: " + response.body());
			}
			sleep(Duration.ofMillis(100));
		}
	}

	// --- reporting

	private void check(boolean passed, String what, Object... args) {
		this.checks++;
		String line = what.formatted(args);
		System.out.printf("%s %s%n", passed ? "ok  " : "FAIL", line);
		if (!passed) {
			this.failures.add(line);
		}
	}

	private static String since(long started) {
		return "%.1f s".formatted((System.nanoTime() - started) / 1e9);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The drill's ports, all from one base: six Redis nodes (and their buses at +10000),
	 * MariaDB, three Kafka nodes with their controllers, and the three services' balancer
	 * ports (their instances at +100 and +200).
	 */
	record Ports(int base) {

		static Ports free() {
			SplittableRandom random = new SplittableRandom();
			for (int attempt = 0; attempt < 50; attempt++) {
				// below Linux's ephemeral range (32768 up), where an outgoing connection
				// can
				// take a port between the check and the bind
				Ports ports = new Ports(20_000 + 10 * random.nextInt(270));
				if (ports.all().stream().noneMatch(FreePorts::isOpen)) {
					return ports;
				}
			}
			throw new IllegalStateException("no free block of ports for the drill");
		}

		int redis() {
			return this.base;
		}

		int db() {
			return this.base + 6;
		}

		int kafka() {
			return this.base + 10;
		}

		int matching() {
			return this.base + 20;
		}

		int swipe() {
			return this.base + 21;
		}

		int relay() {
			return this.base + 22;
		}

		List<Integer> all() {
			List<Integer> ports = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				ports.add(redis() + i);
				ports.add(redis() + i + 10_000);
			}
			ports.add(db());
			for (int i = 0; i < 6; i++) {
				ports.add(kafka() + i);
			}
			for (int service : List.of(matching(), swipe(), relay())) {
				ports.addAll(List.of(service, service + 100, service + 200));
			}
			return ports;
		}

		Map<String, String> environment(Path state) {
			Map<String, String> environment = new HashMap<>();
			environment.put("KINDLING_STATE_DIR", state.toString());
			environment.put("KINDLING_REDIS_PORT", String.valueOf(redis()));
			environment.put("KINDLING_DB_PORT", String.valueOf(db()));
			environment.put("KINDLING_KAFKA_PORT", String.valueOf(kafka()));
			environment.put("KINDLING_KAFKA_CONTROLLER_PORT", String.valueOf(kafka() + 1));
			environment.put("KINDLING_MATCHING_PORT", String.valueOf(matching()));
			environment.put("KINDLING_SWIPE_PORT", String.valueOf(swipe()));
			environment.put("KINDLING_RELAY_PORT", String.valueOf(relay()));
			return environment;
		}

	}

	/** {@code CLUSTER NODES}, as one node sees it: who is primary of which slots. */
	record ClusterNodes(List<Node> nodes) {

		record Node(String id, int port, boolean primary, String primaryId, List<int[]> slots) {

			boolean holds(int slot) {
				return this.slots.stream().anyMatch((range) -> range[0] <= slot && slot <= range[1]);
			}

		}

		static ClusterNodes read(int port) {
			try (Jedis jedis = new Jedis("127.0.0.1", port)) {
				List<Node> nodes = new ArrayList<>();
				for (String line : jedis.clusterNodes().lines().toList()) {
					String[] fields = line.split(" ");
					String address = fields[1].substring(0, fields[1].indexOf('@'));
					boolean failed = fields[2].contains("fail") && !fields[2].contains("fail?");
					if (failed) {
						continue;
					}
					List<int[]> slots = new ArrayList<>();
					for (int i = 8; i < fields.length; i++) {
						if (fields[i].startsWith("[")) {
							continue;
						}
						String[] range = fields[i].split("-");
						int from = Integer.parseInt(range[0]);
						slots.add(new int[] { from, (range.length > 1) ? Integer.parseInt(range[1]) : from });
					}
					nodes.add(new Node(fields[0], Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)),
							fields[2].contains("master"), fields[3], slots));
				}
				return new ClusterNodes(nodes);
			}
		}

		Node primaryOf(int slot) {
			return this.nodes.stream()
				.filter((node) -> node.primary() && node.holds(slot))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("no live primary holds slot " + slot));
		}

		Node replicaOf(Node primary) {
			Optional<Node> replica = this.nodes.stream()
				.filter((node) -> !node.primary() && node.primaryId().equals(primary.id()))
				.findFirst();
			return replica.orElseThrow(() -> new IllegalStateException("no replica of " + primary.port()));
		}

	}

}
