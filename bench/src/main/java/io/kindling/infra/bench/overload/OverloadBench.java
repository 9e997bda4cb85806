package io.kindling.infra.bench.overload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
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
import org.jspecify.annotations.Nullable;

/**
 * {@code ./kindling bench overload [--only swipes|rooms] [--seconds 30] [--measure 10] [--warmup 30] [--clients 16]}:
 * swipe-service (mutual likes) and matching-service (room joins of two), each as two
 * instances on the same stores, alike but for the concurrency limit, warmed up together,
 * and measured in one run: the closed-loop maximum on the instance without a limit
 * ({@code --clients} at full speed, {@code --measure} seconds), so that no refusal lowers
 * it; then, on the instance with the service's own load-shedding settings
 * ({@code --kindling.web.overload.limit=...} changes them), an open loop at half that
 * maximum and an open loop at twice it for {@code --seconds}. Each open-loop call is
 * timed from when it was due; how late the client sent it is printed beside, and each
 * refusal is timed from when it was sent too, so that the client's own queue shows apart
 * from the service's. Afterwards every answer is held to the database: nothing done may
 * be missing or doubled, and nothing refused may have left a trace. Starts its own Redis
 * and MariaDB; stops everything it started.
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
				Instances swipeService = Instances.start(stack, "swipe-service",
						List.of("--kindling.swipe.daily-likes=0", "--kindling.swipe.daily-super-likes=0"));
				Workload swipes = new Swipes(stack, CAPACITY);
				report.addAll(run(stack, swipeService, swipes, clients, warmup, measure, overload));
				swipeService.stop();
			}
			if (!only.equals("swipes")) {
				Instances matchingService = Instances.start(stack, "matching-service", Joins.SETTINGS);
				Workload joins = new Joins(matchingService.unlimited(), stack, CAPACITY);
				report.addAll(run(stack, matchingService, joins, clients, warmup, measure, overload));
				matchingService.stop();
			}
		}
		System.out.println();
		report.forEach(System.out::println);
	}

	private static List<String> run(BenchStack stack, Instances instances, Workload workload, int clients,
			Duration warmup, Duration measure, Duration overload) throws Exception {
		Calls calls = new Calls(workload);
		System.out.printf("%s: warming up both instances for %d s...%n", workload.name(), warmup.toSeconds());
		double rate = 2_000;
		for (Duration left = warmup; !left.isNegative() && !left.isZero(); left = left.minusSeconds(5)) {
			calls.prepare(rate * 1.5 * 5);
			// even clients on the instance without a limit, odd ones on the other
			rate = Load
				.closedLoop(clients, Duration.ofSeconds(5), calls
					.operation((call) -> (call.index() % 2 == 0) ? instances.unlimited() : instances.limited(), null))
				.perSecond();
		}
		calls.prepare(rate * 1.5 * measure.toSeconds());
		System.out.printf("%s: the closed-loop maximum without a limit, %d clients for %d s...%n", workload.name(),
				clients, measure.toSeconds());
		Phase max = calls.phase(stack, instances.unlimited(),
				"closed loop, " + clients + " clients, no limit: the maximum", 0,
				(operation) -> Load.closedLoop(clients, measure, operation));
		double maxRate = max.result().perSecond();
		calls.prepare(maxRate / 2 * 1.1 * measure.toSeconds());
		System.out.printf("%s: open loop at half the maximum, %.0f/s, limit on...%n", workload.name(), maxRate / 2);
		Phase half = calls.phase(stack, instances.limited(), "open loop at half the maximum", maxRate / 2,
				(operation) -> Load.openLoop(maxRate / 2, measure, operation));
		calls.prepare(maxRate * 2 * 1.05 * overload.toSeconds());
		System.out.printf("%s: open loop at twice the maximum, %.0f/s for %d s, limit on...%n", workload.name(),
				maxRate * 2, overload.toSeconds());
		Phase twice = calls.phase(stack, instances.limited(), "open loop at twice the maximum", maxRate * 2,
				(operation) -> Load.openLoop(maxRate * 2, overload, operation));
		Workload.Check check = workload.check();
		return table(workload.name(), List.of(max, half, twice), check);
	}

	private static List<String> table(String name, List<Phase> phases, Workload.Check check) {
		List<String> lines = new ArrayList<>();
		lines.add("%s, two instances alike but for the limit (load average now %s):".formatted(name,
				BenchHost.loadAverage(" ")));
		lines.add("");
		lines.add("| phase | offered /s | done /s | refused /s | failed | done p50 / p99 ms "
				+ "| refused p99 ms: from due / from sent | sent late p99 ms | limit after "
				+ "| cores: service, MariaDB, Redis, bench |");
		lines.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
		for (Phase phase : phases) {
			Load.Result result = phase.result();
			CpuTime cpu = phase.cpu();
			double seconds = result.seconds();
			Timing timing = phase.timing();
			lines.add("| %s | %s | %,.0f | %,.0f | %d | %.1f / %.1f | %s | %s | %s | %.2f, %.2f, %.2f, %.2f |"
				.formatted(phase.name(), (phase.offered() > 0) ? "%,.0f".formatted(phase.offered()) : "",
						result.perSecond(), timing.refused().getTotalCount() / seconds,
						result.errors() - timing.refused().getTotalCount(), result.ms(50), result.ms(99),
						(timing.refused().getTotalCount() > 0) ? "%.1f / %.1f".formatted(
								Percentiles.ms(timing.refused(), 99), Percentiles.ms(timing.refusedFromSent(), 99))
								: "",
						(phase.offered() > 0) ? "%.1f".formatted(Percentiles.ms(timing.late(), 99)) : "", phase.limit(),
						cores(cpu.services(), seconds), cores(cpu.mariaDb(), seconds), cores(cpu.redis(), seconds),
						cores(cpu.bench(), seconds)));
		}
		Load.Result max = phases.get(0).result();
		Load.Result half = phases.get(1).result();
		Phase twice = phases.get(2);
		double goodput = twice.result().perSecond() / max.perSecond();
		double tail = twice.result().ms(99) / half.ms(99);
		double refusedP99 = Percentiles.ms(twice.timing().refused(), 99);
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

	/**
	 * Two instances of one service on the same stores, alike but for the limit: the
	 * maximum is measured on the one without, so that no refusal lowers it, and the half
	 * and twice phases on the one with the service's own settings.
	 */
	private record Instances(ServiceJar withoutLimit, ServiceJar withLimit, ServiceClient unlimited,
			ServiceClient limited) {

		static Instances start(BenchStack stack, String module, List<String> settings) throws Exception {
			ServiceJar withoutLimit = stack.startService(module, "512m", module + "-no-limit.log", settings,
					List.of(BenchStack.NO_OVERLOAD_LIMIT));
			ServiceJar withLimit = stack.startService(module, "512m", module + ".log", settings);
			return new Instances(withoutLimit, withLimit, client(withoutLimit), client(withLimit));
		}

		private static ServiceClient client(ServiceJar service) {
			return new ServiceClient(service.port(), Duration.ofSeconds(10));
		}

		/**
		 * Stops both, so that the next service's phases have the machine to themselves.
		 */
		void stop() {
			ServiceJar.stopAll(List.of(this.withoutLimit, this.withLimit));
		}

	}

	/** One phase's figures. */
	private record Phase(String name, double offered, Load.Result result, Timing timing, CpuTime cpu, String limit) {

	}

	/**
	 * The times of one phase's calls, in µs, beside the load driver's: how late each call
	 * was sent after it was due (in an open loop: the client's own queue), and each
	 * refused call from when it was due and from when it was sent.
	 */
	private record Timing(Histogram late, Histogram refused, Histogram refusedFromSent) {

	}

	/** Records a phase's {@link Timing} as its calls go. */
	private static final class Timer {

		private final Recorder late = new Recorder(3);

		private final Recorder refused = new Recorder(3);

		private final Recorder refusedFromSent = new Recorder(3);

		void sent(Load.Call call) {
			this.late.recordValue(micros(call.elapsed().toNanos()));
		}

		void refused(Load.Call call, long sentNanos) {
			this.refused.recordValue(micros(call.elapsed().toNanos()));
			this.refusedFromSent.recordValue(micros(System.nanoTime() - sentNanos));
		}

		Timing timing() {
			return new Timing(this.late.getIntervalHistogram(), this.refused.getIntervalHistogram(),
					this.refusedFromSent.getIntervalHistogram());
		}

		private static long micros(long nanos) {
			return Math.max(1, nanos / 1_000);
		}

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
		 * Each call takes the next index and goes to the instance {@code instance} picks
		 * for it; a refused one throws, so that the driver counts it apart, and is timed
		 * into {@code timer} (when there is one).
		 */
		Load.Operation operation(Function<Load.Call, ServiceClient> instance, @Nullable Timer timer) {
			return (call) -> {
				int index = this.next.getAndIncrement();
				if (index >= this.prepared) {
					call.finish();
					return;
				}
				long sent = System.nanoTime();
				if (timer != null) {
					timer.sent(call);
				}
				if (!this.workload.call(instance.apply(call), index)) {
					if (timer != null) {
						timer.refused(call, sent);
					}
					throw REFUSED;
				}
			};
		}

		Phase phase(BenchStack stack, ServiceClient http, String name, double offered, Driver driver) throws Exception {
			Timer timer = new Timer();
			CpuTime before = stack.cpu();
			Load.Result result = driver.drive(operation((call) -> http, timer));
			CpuTime cpu = stack.cpu().minus(before);
			return new Phase(name, offered, result, timer.timing(), cpu, limit(stack, http));
		}

		/** The instance's limit now, or {@code off} when it has none. */
		private static String limit(BenchStack stack, ServiceClient http) {
			Matcher value = LIMIT.matcher(http.get("/actuator/prometheus", stack.metricsToken()).body());
			if (!value.find()) {
				return "?";
			}
			double limit = Double.parseDouble(value.group(1));
			return (limit == 0) ? "off" : "%.0f".formatted(limit);
		}

	}

}
