package io.kindling.infra.bench;

/**
 * The rate a latency target is taken at: a quarter of the maximum the same run measured,
 * so that it is the same share of any machine's capacity; or {@code --rate}, fixed, to
 * repeat an older run.
 *
 * @param perSecond the rate, in the unit of the maximum and of {@code --rate}
 * @param source where it comes from, for the tables
 */
public record LatencyRate(double perSecond, String source) {

	/** The share of the maximum a latency is taken at. */
	static final double SHARE_OF_MAXIMUM = 0.25;

	/**
	 * {@code --rate} if given, else a quarter of {@code maximum}.
	 */
	public static LatencyRate of(BenchOptions options, double maximum) {
		long fixed = options.number("--rate", 0);
		return (fixed > 0) ? new LatencyRate(fixed, "--rate")
				: new LatencyRate(maximum * SHARE_OF_MAXIMUM, "a quarter of the maximum");
	}

}
