package io.kindling.infra.bench.swipes;

import java.util.List;
import java.util.Locale;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.Phase;
import io.kindling.infra.bench.Table;
import io.kindling.infra.bench.Turns;
import io.kindling.infra.bench.Usage;

/**
 * {@code ./kindling bench swipes --redis cluster} (or {@code sentinel}): the same swipes
 * on two stacks started side by side, one on a single Redis and one in the chosen mode,
 * each with its own MariaDB and swipe-service. Both warm up, then take turns: full speed
 * in alternating slices, then the same fixed rate (half of standalone's maximum), so a
 * change in the machine's load hits both alike. Prints each side's throughput and p99 and
 * the mode's as a ratio of standalone's, with the CPU and Redis commands per swipe that
 * explain a difference.
 */
final class BesideStandalone {

	/** What the mode must keep of standalone's throughput. */
	private static final double TARGET = 0.9;

	private static final int SLICES = 4;

	private BesideStandalone() {
	}

	/** One stack, its service and load, and what it measured. */
	private static final class Side {

		final String name;

		final BenchStack stack;

		final HttpSwipes swipes;

		Phase full = Phase.NONE;

		Result fixed = Result.NONE;

		Side(String name, BenchStack stack, HttpSwipes swipes) {
			this.name = name;
			this.stack = stack;
			this.swipes = swipes;
		}

	}

	static void run(BenchOptions options, int seconds, int clients, int warmup, int users) throws Exception {
		BenchRedis.Mode mode = options.redis();
		String name = mode.name().toLowerCase(Locale.ROOT);
		try (BenchStack standaloneStack = BenchStack.of("swipes", options)
			.redis(BenchRedis.Mode.STANDALONE)
			.mariaDb(HttpSwipes.DATABASE)
			.start();
				BenchStack modeStack = BenchStack.of("swipes-" + name, options)
					.redis(mode)
					.mariaDb(HttpSwipes.DATABASE)
					.start()) {
			Side standalone = new Side("standalone", standaloneStack, HttpSwipes.start(standaloneStack, users));
			Side other = new Side(name, modeStack, HttpSwipes.start(modeStack, users));
			System.out.printf("swipes bench, standalone beside %s: %,d users, %d clients, %d s per phase%n", name,
					users, clients, seconds);
			for (Side side : List.of(standalone, other)) {
				System.out.printf("warming up %s...%n", side.name);
				side.swipes.warmUp(clients, warmup);
			}
			String loadBefore = BenchHost.loadAverage(" ");
			int slice = Math.max(1, seconds / SLICES);
			Turns.alternate(SLICES, standalone, other, (side, i) -> {
				System.out.printf("full speed on %s, slice %d of %d...%n", side.name, i + 1, SLICES);
				side.full = side.full.plus(side.stack.measure(() -> side.swipes.closedLoop(clients, slice)));
			});
			double rate = standalone.full.perSecond() / 2;
			System.out.printf("both at %.0f swipes/s (half of standalone's maximum)...%n", rate);
			int half = Math.max(1, seconds / 2);
			Turns.alternate(2, standalone, other,
					(side, i) -> side.fixed = side.fixed.plus(side.swipes.openLoop(rate, half)));
			String loadAfter = BenchHost.loadAverage(" ");

			System.out.printf(
					"%nPOST /api/swipes (70 %% PASS, 28 %% LIKE, 2 %% SUPER_LIKE, 10 %% retries), one swipe-service on each stack, %d clients;"
							+ " full speed %d s each in %d alternating slices, then %.0f/s open loop %d s each.%n%n",
					clients, slice * SLICES, SLICES, rate, half * 2);
			Table table = Table
				.columns("redis", "swipes/s", "p50 / p99 ms", "matches", String.format("at %.0f/s: p50 / p99", rate),
						"CPU per swipe, ms: service, MariaDB, Redis", "Redis commands per swipe")
				.right(1, 2, 3, 4, 6);
			for (Side side : List.of(standalone, other)) {
				table.row(side.name, String.format("%,.0f", side.full.perSecond()),
						String.format("%.1f / %.1f", side.full.ms(50), side.full.ms(99)),
						side.full.result().count(SwipeMix.MATCHES),
						String.format("%.1f / %.1f ms", side.fixed.ms(50), side.fixed.ms(99)), side.full.cpuByStore(),
						String.format("%.2f", side.full.per(Usage::redisCommands)));
			}
			double throughput = other.full.perSecond() / standalone.full.perSecond();
			table.row(name + " ÷ standalone", String.format("%.2f", throughput),
					String.format("p99 %.2f×", other.full.ms(99) / standalone.full.ms(99)), "",
					String.format("p99 %.2f×", other.fixed.ms(99) / standalone.fixed.ms(99)),
					other.full.cpuRatioTo(standalone.full), "");
			table.print();
			System.out.printf("%nthroughput, %s ÷ standalone: %.2f (target ≥ %.2f: %s)%n", name, throughput, TARGET,
					(throughput >= TARGET) ? "met" : "not met");
			System.out.printf(
					"Redis CPU counts every Redis process of the stack (%s: %d, replicas included); its commands count the primaries' only, script calls included.%n",
					name, modeStack.redis().pids().size());
			System.out.printf("errors: standalone %d + %d, %s %d + %d; load average before %s, after %s (%d cores)%n",
					standalone.full.result().errors(), standalone.fixed.errors(), name, other.full.result().errors(),
					other.fixed.errors(), loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
		}
	}

}
