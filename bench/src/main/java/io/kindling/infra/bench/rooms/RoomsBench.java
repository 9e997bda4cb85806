package io.kindling.infra.bench.rooms;

import java.util.List;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.LatencyRate;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Phase;
import io.kindling.infra.bench.Table;
import io.kindling.infra.bench.rooms.PushPhase.PushResult;

import static io.kindling.infra.bench.Percentiles.ms;
import static io.kindling.infra.bench.Percentiles.p50p99;

/**
 * {@code ./kindling bench rooms [--seconds 10] [--clients 32] [--warmup 60] [--rate <joins/s>] [--setting=value ...]}:
 * starts its own Redis, MariaDB and two matching-service jars on free ports, then
 * measures, in one run:
 * <ol>
 * <li>join→matched throughput across the two instances (a pair's first join on one, the
 * join that completes the room on the other, then both leave), beside a no-op endpoint
 * ({@code /actuator/health/liveness}) on the same instances;</li>
 * <li>push latency ({@link PushPhase}) at a quarter of the join→matched maximum just
 * measured (or {@code --rate} joins a second), beside a client that polls every
 * second;</li>
 * <li>the cost of forming a room by queue depth, of one topic and of several
 * ({@link FormingCosts}).</li>
 * </ol>
 * {@code --phases forming} runs the last alone, without the services. Stops everything it
 * started.
 *
 * <p>
 * With {@code --redis cluster} (or {@code sentinel}) it measures rooms and pushes on that
 * mode beside a single Redis instead, in one run ({@link BesideStandalone}).
 */
public final class RoomsBench {

	private RoomsBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int seconds = (int) options.number("--seconds", 10);
		int clients = (int) options.number("--clients", 32);
		// the JIT needs tens of thousands of calls of the join path before it is
		// compiled; a short warm-up measures the compiler, not the service
		int warmup = (int) options.number("--warmup", 60);
		if (options.redis() != BenchRedis.Mode.STANDALONE) {
			BesideStandalone.run(options, seconds, clients, warmup);
		}
		else if (options.text("--phases", "all").equals("forming")) {
			formingOnly(options);
		}
		else {
			allPhases(options, seconds, clients, warmup);
		}
	}

	/**
	 * The push phase's rate: {@code --rate} joins a second, or a quarter of the
	 * join→matched maximum (two joins a room).
	 */
	static LatencyRate pushRate(BenchOptions options, Phase maximum) {
		return LatencyRate.of(options, 2 * maximum.perSecond());
	}

	private static void allPhases(BenchOptions options, int seconds, int clients, int warmup) throws Exception {
		try (BenchStack stack = BenchStack.of("rooms", options).redis().mariaDb(RoomsLoad.DATABASE).start()) {
			RoomsLoad load = RoomsLoad.start(stack);
			System.out.printf("rooms bench: two instances, %d clients, %d s per phase, %d s warm-up; load average %s%n",
					clients, seconds, warmup, BenchHost.loadAverage(" / "));
			System.out.println("warming up...");
			load.warmUp(clients, warmup);
			System.out.println("no-op endpoint at full speed...");
			Phase noOp = stack.measure(() -> load.noOp(clients, seconds));
			System.out.println("join -> matched at full speed...");
			Phase rooms = stack.measure(() -> load.rooms(clients, seconds));
			LatencyRate joins = pushRate(options, rooms);
			System.out.printf("push latency at %.0f joins/s, beside 1 s polling...%n", joins.perSecond());
			PushResult push = PushPhase.run(load, joins.perSecond() / 2, seconds);
			System.out.println("forming cost by queue depth...");
			List<FormingCosts.FormCost> costs = FormingCosts.measure(stack);

			System.out.printf(
					"%nTwo matching-service instances, one Redis, one MariaDB, %d closed-loop clients, %d s per row; this %d-core machine.%n%n",
					clients, seconds, Runtime.getRuntime().availableProcessors());
			double noOpRequests = noOp.result().attempts() / noOp.result().seconds();
			double roomRequests = 4 * rooms.result().attempts() / rooms.result().seconds();
			double ratio = roomRequests / noOpRequests;
			Table table = Table.columns("measurement", "value", "baseline", "ratio (target)").right(1, 2);
			table.row("join→matched: rooms/s (join on one, forming join on the other)",
					String.format("%,.0f rooms/s", rooms.perSecond()), String.format("%,.0f req/s no-op", noOpRequests),
					"");
			table.row("join→matched: its requests/s vs the no-op's", String.format("%,.0f req/s", roomRequests),
					String.format("%,.0f req/s", noOpRequests),
					String.format("%.2f (≥ 0.5: %s)", ratio, (ratio >= 0.5) ? "met" : "not met"));
			table.row("join that forms a room: p50 / p99 latency", rooms.p50p99(), noOp.p50p99(), "");
			table.row(
					String.format("push: forming join sent → `matched` on B's stream, p50 / p99 (%,d rooms)",
							push.pushed().getTotalCount()),
					p50p99(push.pushed()),
					String.format("%.0f / %.0f ms poll", ms(push.polled(), 50), ms(push.polled(), 99)),
					String.format("p99 ≤ 20 ms: %s", (ms(push.pushed(), 99) <= 20) ? "met" : "not met"));
			table.row("push: joins/s offered (" + joins.source() + ") / achieved",
					String.format("%.0f joins/s", joins.perSecond()),
					String.format("%.0f joins/s", push.joinsPerSecond()), "");
			FormingCosts.addRows(table, costs);
			table.print();
			System.out.printf(
					"%nCPU per request (ms, from /proc; not distorted by other load): no-op %s; join→matched %s (services, MariaDB, Redis, clients)%n",
					perRequest(noOp, noOp.result().attempts()), perRequest(rooms, 4 * rooms.result().attempts()));
			System.out.printf(
					"errors: no-op %d, rooms %d (statuses of the two joins: %s), push %d (missed %d); load average at the end %s%n",
					noOp.result().errors(), rooms.result().errors(), rooms.result().errorKinds(), push.errors(),
					push.missed(), BenchHost.loadAverage(" / "));
			System.out.printf("pushes over %d ms (time into the measured phase): %s%n",
					PushPhase.SLOW_PUSH_MICROS / 1_000,
					push.slow().isEmpty() ? "none" : String.join(", ", push.slow()));
			System.out.printf(
					"push in the unmeasured lead-in second: p50 / p99 / max %.1f / %.1f / %.1f ms (%,d rooms)%n",
					ms(push.leadIn(), 50), ms(push.leadIn(), 99), ms(push.leadIn(), 100),
					push.leadIn().getTotalCount());
		}
	}

	private static void formingOnly(BenchOptions options) throws Exception {
		try (BenchStack stack = BenchStack.of("rooms", options).redis().start()) {
			System.out.printf("rooms bench, forming only; load average %s%n", BenchHost.loadAverage(" / "));
			Table table = Table.columns("measurement", "value", "baseline", "ratio (target)").right(1, 2);
			FormingCosts.addRows(table, FormingCosts.measure(stack));
			table.print();
			System.out.printf("%nEach row the median of 5 rounds of 2,000 rooms; 1/10 incompatible: one entry in ten "
					+ "is a recent partner of the entry ahead of it; a join of 2–5 topics: its head reads, its join "
					+ "script and the popped entries' removal from their other queues.%n");
		}
	}

	/** "total (services + MariaDB + Redis + clients)" in ms per request. */
	private static String perRequest(Phase phase, double requests) {
		CpuTime cpu = phase.usage().cpu();
		return String.format("%.2f (%.2f + %.2f + %.2f + %.2f)", CpuTime.msPer(cpu.total(), requests),
				CpuTime.msPer(cpu.services(), requests), CpuTime.msPer(cpu.mariaDb(), requests),
				CpuTime.msPer(cpu.redis(), requests), CpuTime.msPer(cpu.bench(), requests));
	}

}
