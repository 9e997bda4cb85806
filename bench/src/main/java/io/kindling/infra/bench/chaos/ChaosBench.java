package io.kindling.infra.bench.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.ClusterStack;

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

	private final ClusterStack stack;

	private final Checks checks = new Checks();

	private final ChaosLoad load;

	private final Kills kills;

	private final StateChecks stateChecks;

	private final Report report;

	private ChaosBench(ClusterStack stack, int addressCount) {
		this.stack = stack;
		Endpoints endpoints = new Endpoints(stack.ports());
		this.load = new ChaosLoad(stack, endpoints, addressCount, this.checks);
		this.kills = new Kills(stack, endpoints, this.load, this.checks);
		this.stateChecks = new StateChecks(endpoints, this.load, this.checks);
		this.report = new Report(this.load, this.checks);
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
				this.load.addresses(), length, BenchHost.loadAverage(" / "));
		long started = System.nanoTime();
		try {
			// on a loaded machine a service may miss a start-up timeout (a Redis
			// subscription, a pool): a second up starts only what is missing, as a person
			// would
			if (this.stack.kindling(Duration.ofMinutes(20), "up", "--cluster") != 0
					&& this.stack.kindling(Duration.ofMinutes(20), "up", "--cluster") != 0) {
				this.checks.fail("./kindling up --cluster failed twice");
				return false;
			}
			System.out.printf("up --cluster in %.0f s%n", (System.nanoTime() - started) / 1e9);
			return load(length, swipers, joiners);
		}
		finally {
			this.load.abandon();
			this.stack.kindling(Duration.ofMinutes(5), "down");
			System.out.printf("%n%s in all; %d failed checks%n", Duration.ofNanos(System.nanoTime() - started),
					this.checks.failed());
			this.checks.printFailures();
		}
	}

	/**
	 * The load for {@code length}, with the victims killed one by one at even intervals
	 * within it; then the report and the checks.
	 */
	private boolean load(Duration length, int swipers, int joiners) throws Exception {
		this.load.start(swipers, joiners);
		long loadStart = System.nanoTime();
		List<Kills.Victim> victims = this.kills.victims();
		long slot = length.toNanos() / (victims.size() + 1);
		List<Kills.Kill> killed = new ArrayList<>();
		for (int i = 0; i < victims.size(); i++) {
			sleepUntil(loadStart + (i + 1) * slot);
			killed.add(this.kills.kill(victims.get(i)));
		}
		sleepUntil(loadStart + length.toNanos());
		long loadEnd = System.nanoTime();
		this.load.stop();
		this.report.print(killed, loadStart, loadEnd);
		this.stateChecks.run();
		this.load.stopConsuming();
		return this.checks.passed();
	}

	private static void sleepUntil(long nanoTime) {
		long left = nanoTime - System.nanoTime();
		if (left > 0) {
			BenchHost.sleep(Duration.ofNanos(left));
		}
	}

}
