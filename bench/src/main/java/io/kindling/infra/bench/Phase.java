package io.kindling.infra.bench;

import java.util.function.Function;

import io.kindling.infra.bench.Load.Result;

/**
 * One measured phase of a bench: what its load did and what it cost the stack, summed
 * over the slices it ran in ({@link BenchStack#measure}).
 */
public record Phase(Result result, Usage usage) {

	public static final Phase NONE = new Phase(Result.NONE, Usage.NONE);

	public Phase plus(Phase other) {
		return new Phase(this.result.plus(other.result), this.usage.plus(other.usage));
	}

	/** Operations done per second. */
	public double perSecond() {
		return this.result.perSecond();
	}

	/** The latency at {@code percentile} in ms. */
	public double ms(double percentile) {
		return this.result.ms(percentile);
	}

	/** "p50 / p99 ms" of the operations' latency. */
	public String p50p99() {
		return Percentiles.p50p99(this.result.latency());
	}

	/** A count of the stack's work (Redis commands, statements) per operation. */
	public double per(Function<Usage, Long> work) {
		return (double) work.apply(this.usage) / Math.max(1, this.result.operations());
	}

	/** "services, MariaDB, Redis" CPU in ms per operation. */
	public String cpuByStore() {
		return this.usage.cpuMsByStore(this.result.operations());
	}

	/** The same three as ratios of {@code base}'s. */
	public String cpuRatioTo(Phase base) {
		return this.usage.cpuRatioByStore(this.result.operations(), base.usage, base.result.operations());
	}

}
