package io.kindling.infra.bench.swipes;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;

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

	static void run(BenchOptions options, BenchRedis.Mode mode, int seconds, int clients, int warmup, int users)
			throws Exception {
		String name = mode.name().toLowerCase(Locale.ROOT);
		try (BenchStack standaloneStack = BenchStack.of("swipes", options)
			.redis(BenchRedis.Mode.STANDALONE)
			.mariaDb(SwipesBench.DATABASE)
			.start();
				BenchStack modeStack = BenchStack.of("swipes-" + name, options)
					.redis(mode)
					.mariaDb(SwipesBench.DATABASE)
					.start()) {
			String secret = "swipes-bench-" + Long.toHexString(new SplittableRandom().nextLong()) + "-0123456789abcdef";
			Side standalone = Side.start("standalone", standaloneStack, secret, options, users);
			Side other = Side.start(name, modeStack, secret, options, users);
			System.out.printf("swipes bench, standalone beside %s: %,d users, %d clients, %d s per phase%n", name,
					users, clients, seconds);
			for (Side side : List.of(standalone, other)) {
				System.out.printf("warming up %s...%n", side.name);
				side.load.closedLoop(clients, warmup);
				SwipesBench.settleJit(side.load, clients, side.service.pid());
			}
			String loadBefore = BenchHost.loadAverage(" ");
			int slice = Math.max(1, seconds / SLICES);
			for (int i = 0; i < SLICES; i++) {
				System.out.printf("full speed, slice %d of %d...%n", i + 1, SLICES);
				// each goes first in every other slice
				for (Side side : (i % 2 == 0) ? List.of(standalone, other) : List.of(other, standalone)) {
					side.full(clients, slice);
				}
			}
			double rate = standalone.full.perSecond() / 2;
			System.out.printf("both at %.0f swipes/s (half of standalone's maximum)...%n", rate);
			int half = Math.max(1, seconds / 2);
			for (int i = 0; i < 2; i++) {
				for (Side side : (i % 2 == 0) ? List.of(standalone, other) : List.of(other, standalone)) {
					side.fixed = side.fixed.plus(side.load.openLoop(rate, half));
				}
			}
			String loadAfter = BenchHost.loadAverage(" ");

			System.out.println();
			System.out.printf(
					"POST /api/swipes (70 %% PASS, 28 %% LIKE, 2 %% SUPER_LIKE, 10 %% retries), one swipe-service on each stack, %d clients;"
							+ " full speed %d s each in %d alternating slices, then %.0f/s open loop %d s each.%n%n",
					clients, slice * SLICES, SLICES, rate, half * 2);
			String format = "| %-34s | %10s | %15s | %8s | %19s | %-28s | %18s |%n";
			System.out.printf(format, "redis", "swipes/s", "p50 / p99 ms", "matches",
					String.format("at %.0f/s: p50 / p99", rate), "CPU per swipe, ms: service, MariaDB, Redis",
					"Redis commands per swipe");
			System.out.printf(format, "---", "---:", "---:", "---:", "---:", "---", "---:");
			for (Side side : List.of(standalone, other)) {
				System.out.printf(format, side.name, String.format("%,.0f", side.full.perSecond()),
						String.format("%.1f / %.1f", side.full.ms(50), side.full.ms(99)), side.full.count("matches"),
						String.format("%.1f / %.1f ms", side.fixed.ms(50), side.fixed.ms(99)), side.cpuPerSwipe(),
						String.format("%.2f", (double) side.redisCommands / side.full.operations()));
			}
			double throughput = other.full.perSecond() / standalone.full.perSecond();
			System.out.printf(format, name + " ÷ standalone", String.format("%.2f", throughput),
					String.format("p99 %.2f×", other.full.ms(99) / standalone.full.ms(99)), "",
					String.format("p99 %.2f×", other.fixed.ms(99) / standalone.fixed.ms(99)),
					String.format("%.2f, %.2f, %.2f", other.ms(CpuTime::services) / standalone.ms(CpuTime::services),
							other.ms(CpuTime::mariaDb) / standalone.ms(CpuTime::mariaDb),
							other.ms(CpuTime::redis) / standalone.ms(CpuTime::redis)),
					"");
			System.out.printf("%nthroughput, %s ÷ standalone: %.2f (target ≥ %.2f: %s)%n", name, throughput, TARGET,
					(throughput >= TARGET) ? "met" : "not met");
			System.out.printf(
					"Redis CPU counts every Redis process of the stack (%s: %d, replicas included); its commands count the primaries' only, script calls included.%n",
					name, modeStack.redis().pids().size());
			System.out.printf("errors: standalone %d + %d, %s %d + %d; load average before %s, after %s (%d cores)%n",
					standalone.full.errors(), standalone.fixed.errors(), name, other.full.errors(),
					other.fixed.errors(), loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
		}
	}

	/** One stack, its service, its load, and what it measured. */
	private static final class Side {

		private final String name;

		private final BenchStack stack;

		private final ServiceJar service;

		private final SwipesBench.HttpLoad load;

		private Result full = Result.NONE;

		private Result fixed = Result.NONE;

		private CpuTime cpu = CpuTime.NONE;

		private long redisCommands;

		private Side(String name, BenchStack stack, ServiceJar service, SwipesBench.HttpLoad load) {
			this.name = name;
			this.stack = stack;
			this.service = service;
			this.load = load;
		}

		static Side start(String name, BenchStack stack, String secret, BenchOptions options, int users)
				throws Exception {
			List<String> settings = new ArrayList<>(SwipesBench.serviceSettings(secret));
			settings.addAll(options.settings());
			ServiceJar service = stack.startService("swipe-service", "1g", "swipe-service.log", settings);
			try (Connection db = DriverManager.getConnection(stack.jdbcUrl(SwipesBench.DATABASE), MariaDbServer.USER,
					MariaDbServer.PASSWORD)) {
				SwipesBench.seedProfiles(db, 1, users);
			}
			return new Side(name, stack, service, new SwipesBench.HttpLoad(service.port(), secret, users));
		}

		void full(int clients, int seconds) throws InterruptedException {
			CpuTime before = this.stack.cpu();
			long commandsBefore = this.stack.redis().commandsProcessed();
			this.full = this.full.plus(this.load.closedLoop(clients, seconds));
			this.cpu = this.cpu.plus(this.stack.cpu().minus(before));
			this.redisCommands += this.stack.redis().commandsProcessed() - commandsBefore;
		}

		double ms(java.util.function.Function<CpuTime, java.time.Duration> role) {
			return CpuTime.msPer(role.apply(this.cpu), this.full.operations());
		}

		String cpuPerSwipe() {
			return String.format("%.3f, %.3f, %.3f", ms(CpuTime::services), ms(CpuTime::mariaDb), ms(CpuTime::redis));
		}

	}

}
