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

	/** "p50 / p99 ms", to a tenth of a millisecond. */
	public static String p50p99(Histogram micros) {
		return String.format("%.1f / %.1f ms", ms(micros, 50), ms(micros, 99));
	}

	/** "12.3 ms" at {@code percentile}, or "-" for a histogram of nothing. */
	public static String ms(Histogram micros, double percentile, String unit) {
		return (micros.getTotalCount() == 0) ? "-" : String.format("%.1f%s", ms(micros, percentile), unit);
	}

}
