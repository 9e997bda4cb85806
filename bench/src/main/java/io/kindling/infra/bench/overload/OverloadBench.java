package io.kindling.infra.bench.overload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Percentiles;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.ServiceJar;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * {@code ./kindling bench overload [--only swipes|rooms] [--seconds 30] [--measure 10] [--warmup 30] [--clients 16]}:
 * one instance of swipe-service (mutual likes) and of matching-service (room joins of
 * two), each measured in one run: the closed-loop maximum ({@code --clients} at full
 * speed, {@code --measure} seconds), an open loop at half that maximum, then an open loop
 * at twice it for {@code --seconds}. The services run with their own load-shedding
 * settings ({@code --kindling.web.overload.limit=...} changes them). Afterwards every
 * answer is held to the database: nothing done may be missing or doubled, and nothing
 * refused may have left a trace. Starts its own Redis and MariaDB; stops everything it
 * started.
 */
public final class OverloadBench {

	private static final int CAPACITY = 1_500_000;

	/** What a refused call throws, so that the load driver counts it apart. */
	private static final RuntimeException REFUSED = new RuntimeException("503 overloaded", null, false, false) {
	};

	/** The service's limit as Prometheus reads it. */
	private static final Pattern LIMIT = Pattern
		.compile("(?m)^kindling_web_overload_limit(?:\\{[^}]*})? ([0-9.eE+]+)$");

	static final String SWIPES = "kindling_swipe";

	static final String ROOMS = "kindling_matching";

	private OverloadBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		String only = options.text("--only", "both");
		Duration overload = Duration.ofSeconds(options.number("--seconds", 30));
		Duration measure = Duration.ofSeconds(options.number("--measure", 10));
		Duration warmup = Duration.ofSeconds(options.number("--warmup", 30));
		int clients = (int) options.number("--clients", 16);
		List<String> report = new ArrayList<>();
		try (BenchStack stack = BenchStack.of("overload", options).redis().mariaDb(SWIPES, ROOMS).start()) {
			if (!only.equals("rooms")) {
				ServiceJar service = stack.startService("swipe-service", "512m", "swipe-service.log",
						List.of("--kindling.swipe.daily-likes=0", "--kindling.swipe.daily-super-likes=0"));
				ServiceClient http = new ServiceClient(service.port(), Duration.ofSeconds(10));
				Workload swipes = new Swipes(http, stack, CAPACITY);
				report.addAll(run(stack, http, swipes, clients, warmup, measure, overload));
			}
			if (!only.equals("swipes")) {
				ServiceJar service = stack.startService("matching-service", "512m", "matching-service.log",
						Joins.SETTINGS);
				ServiceClient http = new ServiceClient(service.port(), Duration.ofSeconds(10));
				Workload joins = new Joins(http, stack, CAPACITY);
				report.addAll(run(stack, http, joins, clients, warmup, measure, overload));
			}
		}
		System.out.println();
		report.forEach(System.out::println);
	}

	private static List<String> run(BenchStack stack, ServiceClient http, Workload workload, int clients,
			Duration warmup, Duration measure, Duration overload) throws Exception {
		Calls calls = new Calls(workload);
		System.out.printf("%s: warming up for %d s...%n", workload.name(), warmup.toSeconds());
		double rate = 2_000;
		for (Duration left = warmup; !left.isNegative() && !left.isZero(); left = left.minusSeconds(5)) {
			calls.prepare(rate * 1.5 * 5);
			rate = Load.closedLoop(clients, Duration.ofSeconds(5), calls.operation(null)).perSecond();
		}
		calls.prepare(rate * 1.5 * measure.toSeconds());
		System.out.printf("%s: the closed-loop maximum, %d clients for %d s...%n", workload.name(), clients,
				measure.toSeconds());
		Phase max = calls.phase(stack, http, "closed loop, " + clients + " clients: the maximum", 0,
				(operation) -> Load.closedLoop(clients, measure, operation));
		double maxRate = max.result().perSecond();
		calls.prepare(maxRate / 2 * 1.1 * measure.toSeconds());
		System.out.printf("%s: open loop at half the maximum, %.0f/s...%n", workload.name(), maxRate / 2);
		Phase half = calls.phase(stack, http, "open loop at half the maximum", maxRate / 2,
				(operation) -> Load.openLoop(maxRate / 2, measure, operation));
		calls.prepare(maxRate * 2 * 1.05 * overload.toSeconds());
		System.out.printf("%s: open loop at twice the maximum, %.0f/s for %d s...%n", workload.name(), maxRate * 2,
				overload.toSeconds());
		Phase twice = calls.phase(stack, http, "open loop at twice the maximum", maxRate * 2,
				(operation) -> Load.openLoop(maxRate * 2, overload, operation));
		Workload.Check check = workload.check();
		return table(workload.name(), List.of(max, half, twice), check);
	}

	private static List<String> table(String name, List<Phase> phases, Workload.Check check) {
		List<String> lines = new ArrayList<>();
		lines.add("%s, one instance (load average now %s):".formatted(name, BenchHost.loadAverage(" ")));
		lines.add("");
		lines.add("| phase | offered /s | done /s | refused /s | failed | done p50 / p99 ms | refused p99 ms "
				+ "| limit after | cores: service, MariaDB, Redis, bench |");
		lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
		for (Phase phase : phases) {
			Load.Result result = phase.result();
			CpuTime cpu = phase.cpu();
			double seconds = result.seconds();
			lines.add("| %s | %s | %,.0f | %,.0f | %d | %.1f / %.1f | %s | %s | %.2f, %.2f, %.2f, %.2f |"
				.formatted(phase.name(), (phase.offered() > 0) ? "%,.0f".formatted(phase.offered()) : "",
						result.perSecond(), phase.refused().getTotalCount() / seconds,
						result.errors() - phase.refused().getTotalCount(), result.ms(50), result.ms(99),
						(phase.refused().getTotalCount() > 0) ? "%.1f".formatted(Percentiles.ms(phase.refused(), 99))
								: "",
						phase.limit(), cores(cpu.services(), seconds), cores(cpu.mariaDb(), seconds),
						cores(cpu.redis(), seconds), cores(cpu.bench(), seconds)));
		}
		Load.Result max = phases.get(0).result();
		Load.Result half = phases.get(1).result();
		Phase twice = phases.get(2);
		double goodput = twice.result().perSecond() / max.perSecond();
		double tail = twice.result().ms(99) / half.ms(99);
		double refusedP99 = Percentiles.ms(twice.refused(), 99);
		lines.add("");
		lines.add("at twice the maximum: goodput %.2f of the maximum (≥ 0.8: %s); done p99 %.1f × the half-rate p99 "
			.formatted(goodput, met(goodput >= 0.8), tail)
				+ "(≤ 4: %s); refused p99 %.1f ms (≤ 50: %s)".formatted(met(tail <= 4), refusedP99,
						met(refusedP99 <= 50)));
		lines.add("afterwards, over all %,d calls done, %,d refused and %,d failed: %d lost and %d doubled %s, "
			.formatted(check.done(), check.refused(), check.failed(), check.lost(), check.doubled(), check.facts())
				+ "%d refused calls that left a trace (%s)".formatted(check.refusedButDone(),
						check.clean() ? "clean" : "NOT CLEAN"));
		lines.add("other failures in the twice-the-maximum phase: " + twice.result().errorKinds());
		lines.add("");
		return lines;
	}

	private static String met(boolean met) {
		return met ? "met" : "not met";
	}

	private static double cores(Duration cpu, double seconds) {
		return cpu.toNanos() / 1e9 / seconds;
	}

	/** One phase's figures. */
	private record Phase(String name, double offered, Load.Result result, Histogram refused, CpuTime cpu,
			String limit) {

	}

	@FunctionalInterface
	private interface Driver {

		Load.Result drive(Load.Operation operation) throws InterruptedException;

	}

	/** The calls of one workload, numbered across its phases. */
	private static final class Calls {

		private final Workload workload;

		private final AtomicInteger next = new AtomicInteger();

		private int prepared;

		Calls(Workload workload) {
			this.workload = workload;
		}

		/** Makes ready about {@code more} calls past those made. */
		void prepare(double more) throws Exception {
			int wanted = (int) Math.min(CAPACITY, this.next.get() + Math.ceil(more));
			if (wanted > this.prepared) {
				this.workload.prepare(wanted);
				this.prepared = wanted;
			}
		}

		/**
		 * Each call takes the next index; a refused one is timed into {@code refused}.
		 */
		Load.Operation operation(Recorder refused) {
			return (call) -> {
				int index = this.next.getAndIncrement();
				if (index >= this.prepared) {
					call.finish();
					return;
				}
				if (!this.workload.call(index)) {
					if (refused != null) {
						refused.recordValue(Math.max(1, call.elapsed().toNanos() / 1_000));
					}
					throw REFUSED;
				}
			};
		}

		Phase phase(BenchStack stack, ServiceClient http, String name, double offered, Driver driver) throws Exception {
			Recorder refused = new Recorder(3);
			CpuTime before = stack.cpu();
			Load.Result result = driver.drive(operation(refused));
			CpuTime cpu = stack.cpu().minus(before);
			return new Phase(name, offered, result, refused.getIntervalHistogram(), cpu, limit(stack, http));
		}

		private static String limit(BenchStack stack, ServiceClient http) {
			Matcher value = LIMIT.matcher(http.get("/actuator/prometheus", stack.metricsToken()).body());
			return value.find() ? "%.0f".formatted(Double.parseDouble(value.group(1))) : "?";
		}

	}

}
