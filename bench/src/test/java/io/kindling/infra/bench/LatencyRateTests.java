package io.kindling.infra.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyRateTests {

	@Test
	void withoutRateItIsAQuarterOfTheMaximum() {
		LatencyRate rate = LatencyRate.of(BenchOptions.of(new String[0]), 219);

		assertThat(rate.perSecond()).isEqualTo(54.75);
		assertThat(rate.source()).isEqualTo("a quarter of the maximum");
	}

	@Test
	void rateFixesItWhateverTheMaximum() {
		LatencyRate rate = LatencyRate.of(BenchOptions.of(new String[] { "--rate", "200" }), 219);

		assertThat(rate.perSecond()).isEqualTo(200);
		assertThat(rate.source()).isEqualTo("--rate");
	}

}
