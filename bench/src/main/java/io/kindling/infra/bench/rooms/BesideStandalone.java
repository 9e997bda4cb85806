package io.kindling.infra.bench.rooms;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.http.ServiceClient;
import org.jspecify.annotations.Nullable;

import static io.kindling.infra.bench.Percentiles.ms;

/**
 * {@code ./kindling bench rooms --redis cluster} (or {@code sentinel}): rooms on two
 * stacks started side by side, one on a single Redis and one in the chosen mode, each
 * with its own MariaDB and two matching-service instances. Both warm up, then take turns:
 * join→matched at full speed in alternating slices (a change in the machine's load hits
 * both alike), then the push at 200 joins/s on each. Prints each side's rooms/s and p99
 * and the mode's as a ratio of standalone's, with the CPU and Redis commands per room
 * that explain a difference.
 */
final class BesideStandalone {

	/** What the mode must keep of standalone's throughput. */
	private static final double TARGET = 0.8;

	private static final int SLICES = 4;

	private BesideStandalone() {
	}

	static void run(BenchOptions options, BenchRedis.Mode mode, int seconds, int clients, int warmup) throws Exception {
		String name = mode.name().toLowerCase(Locale.ROOT);
		try (BenchStack standaloneStack = BenchStack.of("rooms", options)
			.redis(BenchRedis.Mode.STANDALONE)
			.mariaDb(RoomsBench.DATABASE)
			.start();
				BenchStack modeStack = BenchStack.of("rooms-" + name, options)
					.redis(mode)
					.mariaDb(RoomsBench.DATABASE)
					.start()) {
			Side standalone = Side.start("standalone", standaloneStack, options);
			Side other = Side.start(name, modeStack, options);
			System.out.printf("rooms bench, standalone beside %s: two instances each, %d clients, %d s per phase%n",
					name, clients, seconds);
			for (Side side : List.of(standalone, other)) {
				System.out.printf("warming up %s...%n", side.name);
				RoomsBench.noOp(side.a, side.b, clients, Math.max(3, warmup / 4));
				RoomsBench.rooms(side.a, side.b, clients, Math.max(3, warmup - warmup / 4));
			}
			String loadBefore = BenchHost.loadAverage(" / ");
			int slice = Math.max(1, seconds / SLICES);
			for (int i = 0; i < SLICES; i++) {
				System.out.printf("join -> matched at full speed, slice %d of %d...%n", i + 1, SLICES);
				// each goes first in every other slice
				for (Side side : (i % 2 == 0) ? List.of(standalone, other) : List.of(other, standalone)) {
					side.rooms(clients, slice);
				}
			}
			for (Side side : List.of(standalone, other)) {
				System.out.printf("push latency at 200 joins/s on %s...%n", side.name);
				side.push = RoomsBench.push(side.a, side.b, seconds);
			}
			String loadAfter = BenchHost.loadAverage(" / ");
			RoomsBench.PushResult standalonePush = standalone.push();
			RoomsBench.PushResult otherPush = other.push();

			System.out.println();
			System.out.printf(
					"Join on one instance, the forming join on the other, both leave; %d closed-loop clients, %d s each in %d alternating slices."
							+ " Push: 200 joins/s open loop, %d s each after a 1 s lead-in.%n%n",
					clients, slice * SLICES, SLICES, seconds);
			String format = "| %-28s | %9s | %22s | %21s | %-34s | %16s |%n";
			System.out.printf(format, "redis", "rooms/s", "forming join p50 / p99", "push p50 / p99",
					"CPU per room, ms: services, MariaDB, Redis", "Redis commands per room");
			System.out.printf(format, "---", "---:", "---:", "---:", "---", "---:");
			for (Side side : List.of(standalone, other)) {
				System.out.printf(format, side.name, String.format("%,.0f", side.rooms.perSecond()),
						String.format("%.1f / %.1f ms", side.rooms.ms(50), side.rooms.ms(99)),
						String.format("%.1f / %.1f ms", ms(side.push().pushed(), 50), ms(side.push().pushed(), 99)),
						String.format("%.3f, %.3f, %.3f", side.ms(CpuTime::services), side.ms(CpuTime::mariaDb),
								side.ms(CpuTime::redis)),
						String.format("%.2f", (double) side.redisCommands / side.rooms.operations()));
			}
			double throughput = other.rooms.perSecond() / standalone.rooms.perSecond();
			System.out.printf(format, name + " ÷ standalone", String.format("%.2f", throughput),
					String.format("p99 %.2f×", other.rooms.ms(99) / standalone.rooms.ms(99)),
					String.format("p99 %.2f×", ms(otherPush.pushed(), 99) / ms(standalonePush.pushed(), 99)),
					String.format("%.2f, %.2f, %.2f", other.ms(CpuTime::services) / standalone.ms(CpuTime::services),
							other.ms(CpuTime::mariaDb) / standalone.ms(CpuTime::mariaDb),
							other.ms(CpuTime::redis) / standalone.ms(CpuTime::redis)),
					String.format("%.2f", (double) other.redisCommands / other.rooms.operations()
							/ ((double) standalone.redisCommands / standalone.rooms.operations())));
			System.out.printf("%nrooms/s, %s ÷ standalone: %.2f (target ≥ %.2f: %s)%n", name, throughput, TARGET,
					(throughput >= TARGET) ? "met" : "not met");
			System.out.printf(
					"Redis CPU counts every Redis process of the stack (%s: %d, replicas included); its commands count the primaries' only, script calls included.%n",
					name, modeStack.redis().pids().size());
			System.out.printf(
					"errors: standalone rooms %d (%s), push %d (missed %d); %s rooms %d (%s), push %d (missed %d); load average before %s, after %s%n",
					standalone.rooms.errors(), standalone.rooms.errorKinds(), standalonePush.errors(),
					standalonePush.missed(), name, other.rooms.errors(), other.rooms.errorKinds(), otherPush.errors(),
					otherPush.missed(), loadBefore, loadAfter);
		}
	}

	/** One stack, its two instances, and what it measured. */
	private static final class Side {

		private final String name;

		private final BenchStack stack;

		private final ServiceClient a;

		private final ServiceClient b;

		private Result rooms = Result.NONE;

		private CpuTime cpu = CpuTime.NONE;

		private long redisCommands;

		private RoomsBench.@Nullable PushResult push;

		private Side(String name, BenchStack stack, ServiceClient a, ServiceClient b) {
			this.name = name;
			this.stack = stack;
			this.a = a;
			this.b = b;
		}

		static Side start(String name, BenchStack stack, BenchOptions options) throws Exception {
			List<String> settings = new ArrayList<>(RoomsBench.SERVICE_SETTINGS);
			settings.addAll(options.settings());
			int portA = stack.startService("matching-service", "512m", "matching-a.log", settings).port();
			int portB = stack.startService("matching-service", "512m", "matching-b.log", settings).port();
			RoomsBench.addTopics(stack.jdbcUrl(RoomsBench.DATABASE));
			return new Side(name, stack, new ServiceClient(portA, Duration.ofSeconds(30)),
					new ServiceClient(portB, Duration.ofSeconds(30)));
		}

		void rooms(int clients, int seconds) throws InterruptedException {
			CpuTime before = this.stack.cpu();
			long commandsBefore = this.stack.redis().commandsProcessed();
			this.rooms = this.rooms.plus(RoomsBench.rooms(this.a, this.b, clients, seconds));
			this.cpu = this.cpu.plus(this.stack.cpu().minus(before));
			this.redisCommands += this.stack.redis().commandsProcessed() - commandsBefore;
		}

		RoomsBench.PushResult push() {
			if (this.push == null) {
				throw new IllegalStateException(this.name + " has not measured its push yet");
			}
			return this.push;
		}

		double ms(Function<CpuTime, Duration> role) {
			return CpuTime.msPer(role.apply(this.cpu), this.rooms.operations());
		}

	}

}
