package io.kindling.infra.bench.rooms;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.LatencyRate;
import io.kindling.infra.bench.Phase;
import io.kindling.infra.bench.Table;
import io.kindling.infra.bench.Turns;
import io.kindling.infra.bench.Usage;
import io.kindling.infra.bench.rooms.PushPhase.PushResult;
import org.jspecify.annotations.Nullable;

import static io.kindling.infra.bench.Percentiles.ms;
import static io.kindling.infra.bench.Percentiles.p50p99;

/**
 * {@code ./kindling bench rooms --redis cluster} (or {@code sentinel}): rooms on two
 * stacks started side by side, one on a single Redis and one in the chosen mode, each
 * with its own MariaDB and two matching-service instances. Both warm up, then take turns:
 * join→matched at full speed in alternating slices (a change in the machine's load hits
 * both alike), then the push on each at a quarter of standalone's maximum. Prints each
 * side's rooms/s and p99 and the mode's as a ratio of standalone's, with the CPU and
 * Redis commands per room that explain a difference.
 */
final class BesideStandalone {

	/** What the mode must keep of standalone's throughput. */
	private static final double TARGET = 0.8;

	private static final int SLICES = 4;

	private BesideStandalone() {
	}

	/** One stack, its two instances, and what it measured. */
	private static final class Side {

		final String name;

		final RoomsLoad load;

		Phase rooms = Phase.NONE;

		@Nullable PushResult push;

		Side(String name, RoomsLoad load) {
			this.name = name;
			this.load = load;
		}

		PushResult push() {
			return Objects.requireNonNull(this.push, "the push is measured after the rooms");
		}

	}

	static void run(BenchOptions options, int seconds, int clients, int warmup) throws Exception {
		BenchRedis.Mode mode = options.redis();
		String name = mode.name().toLowerCase(Locale.ROOT);
		try (BenchStack standaloneStack = BenchStack.of("rooms", options)
			.redis(BenchRedis.Mode.STANDALONE)
			.mariaDb(RoomsLoad.DATABASE)
			.start();
				BenchStack modeStack = BenchStack.of("rooms-" + name, options)
					.redis(mode)
					.mariaDb(RoomsLoad.DATABASE)
					.start()) {
			Side standalone = new Side("standalone", RoomsLoad.start(standaloneStack));
			Side other = new Side(name, RoomsLoad.start(modeStack));
			System.out.printf("rooms bench, standalone beside %s: two instances each, %d clients, %d s per phase%n",
					name, clients, seconds);
			for (Side side : List.of(standalone, other)) {
				System.out.printf("warming up %s...%n", side.name);
				side.load.warmUp(clients, warmup);
			}
			String loadBefore = BenchHost.loadAverage(" / ");
			int slice = Math.max(1, seconds / SLICES);
			Turns.alternate(SLICES, standalone, other, (side, i) -> {
				System.out.printf("join -> matched at full speed on %s, slice %d of %d...%n", side.name, i + 1, SLICES);
				side.rooms = side.rooms.plus(side.load.stack.measure(() -> side.load.rooms(clients, slice)));
			});
			LatencyRate joins = RoomsBench.pushRate(options, standalone.rooms);
			for (Side side : List.of(standalone, other)) {
				System.out.printf("push latency at %.0f joins/s on %s...%n", joins.perSecond(), side.name);
				side.push = PushPhase.run(side.load, joins.perSecond() / 2, seconds);
			}
			String loadAfter = BenchHost.loadAverage(" / ");

			System.out.printf(
					"%nJoin on one instance, the forming join on the other, both leave; %d closed-loop clients, %d s each in %d alternating slices."
							+ " Push: %.0f joins/s open loop (%s), %d s each after a 1 s lead-in.%n%n",
					clients, slice * SLICES, SLICES, joins.perSecond(), joins.source(), seconds);
			Table table = Table
				.columns("redis", "rooms/s", "forming join p50 / p99", "push p50 / p99",
						"CPU per room, ms: services, MariaDB, Redis", "Redis commands per room")
				.right(1, 2, 3, 5);
			for (Side side : List.of(standalone, other)) {
				table.row(side.name, String.format("%,.0f", side.rooms.perSecond()), side.rooms.p50p99(),
						p50p99(side.push().pushed()), side.rooms.cpuByStore(),
						String.format("%.2f", side.rooms.per(Usage::redisCommands)));
			}
			double throughput = other.rooms.perSecond() / standalone.rooms.perSecond();
			table.row(name + " ÷ standalone", String.format("%.2f", throughput),
					String.format("p99 %.2f×", other.rooms.ms(99) / standalone.rooms.ms(99)),
					String.format("p99 %.2f×", ms(other.push().pushed(), 99) / ms(standalone.push().pushed(), 99)),
					other.rooms.cpuRatioTo(standalone.rooms), String.format("%.2f",
							other.rooms.per(Usage::redisCommands) / standalone.rooms.per(Usage::redisCommands)));
			table.print();
			System.out.printf("%nrooms/s, %s ÷ standalone: %.2f (target ≥ %.2f: %s)%n", name, throughput, TARGET,
					(throughput >= TARGET) ? "met" : "not met");
			System.out.printf(
					"Redis CPU counts every Redis process of the stack (%s: %d, replicas included); its commands count the primaries' only, script calls included.%n",
					name, modeStack.redis().pids().size());
			for (Side side : List.of(standalone, other)) {
				System.out.printf("errors on %s: rooms %d (%s), push %d (missed %d)%n", side.name,
						side.rooms.result().errors(), side.rooms.result().errorKinds(), side.push().errors(),
						side.push().missed());
			}
			System.out.printf("load average before %s, after %s%n", loadBefore, loadAfter);
		}
	}

}
