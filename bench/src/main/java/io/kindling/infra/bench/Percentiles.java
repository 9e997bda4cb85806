package io.kindling.infra.bench;

import org.HdrHistogram.Histogram;

/** Reads histograms recorded in microseconds. */
public final class Percentiles {

	private Percentiles() {
	}

	/** The value at {@code percentile} (100 is the maximum) in milliseconds. */
	public static double ms(Histogram micros, double percentile) {
		return micros.getValueAtPercentile(percentile) / 1_000.0;
	}

}
