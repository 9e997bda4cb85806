package io.kindling.infra.bench.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.ClusterStack;
import io.kindling.infra.http.Response;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.RedisServer;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@code ./kindling bench stack}: the drill of {@code ./kindling up --cluster}, end to
 * end, on ports and a state directory of its own ({@link ClusterStack}). It starts the
 * cluster stack as a user would, forms a room and makes a match through the balancer
 * ({@link StackApi}), kills (SIGKILL) the Redis primary that holds the room queue's slot,
 * and checks that joins and swipes on that slot answer again once its replica is
 * promoted, with nothing formed before the kill lost and no caller ever given anything
 * but a 2xx or a 503. Then {@code ./kindling down}, after which nothing it started may
 * run or listen. Prints each check and how long each step took; exits 1 when a check
 * fails (keeping the state directory and its logs).
 */
public final class StackBench {

	/** What {@code ./kindling up --cluster} starts, by the name its pid file has. */
	private static final Set<String> STARTED = Set.of("redis-1", "redis-2", "redis-3", "redis-4", "redis-5", "redis-6",
			"mariadb-1", "mariadb-2", "mariadb-3", "kafka-1", "kafka-2", "kafka-3", "matching-service-1",
			"matching-service-2", "swipe-service-1", "swipe-service-2", "outbox-relay-1", "outbox-relay-2", "balancer",
			"web-client", "prometheus");

	private final ClusterStack stack;

	private final ClusterStack.Ports ports;

	private final StackApi api;

	private final SplittableRandom random = new SplittableRandom();

	private final List<String> failures = new ArrayList<>();

	private int checks;

	private StackBench(ClusterStack stack) {
		this.stack = stack;
		this.ports = stack.ports();
		this.api = new StackApi(stack);
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		ClusterStack stack = new ClusterStack(BenchHost.root(), Path.of(options.text("--dir", "/var/tmp")),
				"stack-drill");
		ClusterStack.Ports ports = stack.ports();
		System.out.printf("up --cluster drill: state %s, Redis %d-%d, balancer %d/%d/%d; load average %s%n",
				stack.state(), ports.redis(), ports.redis() + 5, ports.matching(), ports.swipe(), ports.relay(),
				BenchHost.loadAverage(" / "));
		boolean passed = new StackBench(stack).run();
		if (passed && !options.text("--keep", "false").equals("true")) {
			BenchHost.deleteQuietly(stack.state());
		}
		else {
			System.out.printf("state, logs and the script's output kept in %s%n", stack.state());
		}
		System.exit(passed ? 0 : 1);
	}

	private boolean run() throws Exception {
		long started = System.nanoTime();
		Map<String, Long> pids = Map.of();
		try {
			int up = this.stack.kindling(Duration.ofMinutes(15), "up", "--cluster");
			check(up == 0, "./kindling up --cluster exits 0 (it took %s)", since(started));
			// what a failed up started must be stopped by down too
			pids = this.stack.pids();
			if (up != 0) {
				return false;
			}
			check(pids.keySet().equals(STARTED),
					"21 processes started (6 Redis, 3 MariaDB, 3 Kafka, 6 services, the balancer, the web client, Prometheus): %s",
					new TreeSet<>(pids.keySet()));
			drill();
		}
		catch (RuntimeException | AssertionError ex) {
			check(false, "the drill ran to its end: %s", ex);
		}
		finally {
			long down = System.nanoTime();
			int exit = this.stack.kindling(Duration.ofMinutes(5), "down");
			check(exit == 0, "./kindling down exits 0 (it took %s)", since(down));
			List<String> alive = pids.entrySet()
				.stream()
				.filter((entry) -> ProcessHandle.of(entry.getValue()).map(ProcessHandle::isAlive).orElse(false))
				.map(Map.Entry::getKey)
				.toList();
			check(alive.isEmpty(), "after down, none of the %d started processes runs: %s", pids.size(), alive);
			List<Integer> listening = this.ports.all().stream().filter(FreePorts::isOpen).toList();
			check(listening.isEmpty(), "after down, none of the stack's %d ports listens: %s", this.ports.all().size(),
					listening);
			List<String> naming = this.stack.processesNamingTheState();
			check(naming.isEmpty(), "after down, no process names the state directory (Kafka's nodes included): %s",
					naming);
		}
		System.out.printf("%n%d checks, %d failed; %s in all%n", this.checks, this.failures.size(), since(started));
		this.failures.forEach((failure) -> System.out.println("FAILED: " + failure));
		return this.failures.isEmpty();
	}

	private void drill() throws Exception {
		// a room and a match through the balancer
		String a = this.api.session();
		String b = this.api.session();
		Response joinA = this.api.join(a);
		Response joinB = this.api.join(b);
		check(joinA.status() == 202 && joinB.status() == 200, "two joins through the balancer form a room (%d, %d)",
				joinA.status(), joinB.status());
		String room = this.api.roomOf(a);
		check(!room.isEmpty() && room.equals(this.api.roomOf(b)), "both sessions are in room %s", room);
		long[] before = pairOn(this.ports.redis(), -1);
		check(this.api.match(before[0], before[1]), "a mutual like through the balancer is a match (users %d, %d)",
				before[0], before[1]);
		String balancerLog = this.stack.log("balancer");
		for (String service : List.of("matching-service", "swipe-service")) {
			check(balancerLog.contains(service + "/" + service + "-1")
					&& balancerLog.contains(service + "/" + service + "-2"),
					"the balancer sent %s requests to both its instances", service);
		}

		// the primary holding the queue's slot, and its replica, caught up before the
		// kill
		int queueSlot = JedisClusterCRC16.getSlot("{" + StackApi.TOPIC + ":" + StackApi.SIZE + "}");
		ClusterNodes nodes = ClusterNodes.read(this.ports.redis());
		ClusterNodes.Node primary = nodes.primaryOf(queueSlot);
		ClusterNodes.Node replica = nodes.replicaOf(primary);
		RedisServer.awaitReplicated(primary.port(), Duration.ofSeconds(10));
		String waiting = this.api.session();
		String partner = this.api.session();
		long pid = this.stack.pidOf("redis-" + (primary.port() - this.ports.redis() + 1));
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
		Response joined = StackApi.untilAnswered(() -> this.api.join(waiting), statuses);
		Duration joinsBack = Duration.ofNanos(System.nanoTime() - killed);
		check(joined.status() == 202,
				"a join on that slot is answered %d, %d ms after the kill (%d answers of 503 before it)",
				joined.status(), joinsBack.toMillis(), statuses.size());
		check(statuses.stream().allMatch((status) -> status == 503), "every refused join was a 503: %s",
				statuses.stream().distinct().toList());
		FreePorts.await("the replica to hold the slot", StackApi.FAILOVER_DEADLINE, () -> {
			try {
				return ClusterNodes.read(replica.port()).primaryOf(queueSlot).port() == replica.port();
			}
			catch (RuntimeException ex) {
				return false;
			}
		});
		check(true, "the replica (port %d) now holds slot %d as primary, %d ms after the kill", replica.port(),
				queueSlot, Duration.ofNanos(System.nanoTime() - killed).toMillis());
		Response partnered = StackApi.untilAnswered(() -> this.api.join(partner), new ArrayList<>());
		String newRoom = this.api.roomOf(waiting);
		check(partnered.status() == 200 && !newRoom.isEmpty() && newRoom.equals(this.api.roomOf(partner)),
				"the next join forms a room on the promoted replica (%d, room %s)", partnered.status(), newRoom);
		check(room.equals(this.api.roomOf(a)) && room.equals(this.api.roomOf(b)),
				"the room formed before the kill is still theirs");

		// swipes on a pair whose key hashes to the same (now promoted) slot range
		List<Integer> swipeStatuses = new ArrayList<>();
		long[] pair = pairOn(replica.port(), queueSlot);
		check(this.api.match(pair[0], pair[1], swipeStatuses),
				"a mutual like on a key of the failed-over slots is a match " + "(users %d, %d; %d answered 503 first)",
				pair[0], pair[1], swipeStatuses.size());
		check(this.api.matchCount(pair[0]) == 1 && this.api.matchCount(before[0]) == 1,
				"each mutual pair, before and after the kill, has exactly one match");
		// the service may hold a request while its client waits for the new primary, or
		// refuse it
		System.out.printf(
				"    the first join on the killed primary's slot was answered %d ms after the kill, "
						+ "after %d refusals (503); the replica took over slot %d%n",
				joinsBack.toMillis(), statuses.size(), queueSlot);
	}

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

}
