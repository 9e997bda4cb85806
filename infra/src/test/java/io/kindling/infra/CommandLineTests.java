package io.kindling.infra;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CommandLineTests {

	@Test
	void anOptionIsReadAfterItsNameOrAfterAnEqualsSign() {
		CommandLine line = CommandLine.of(new String[] { "--seconds", "15", "--clients=8" });

		assertThat(line.number("--seconds", 10)).isEqualTo(15);
		assertThat(line.number("--clients", 32)).isEqualTo(8);
		assertThat(line.number("--warmup", 60)).isEqualTo(60);
		assertThat(line.text("--phases", "all")).isEqualTo("all");
	}

	@Test
	void aNumberMayBeWrittenWithUnderscoresOrCommas() {
		CommandLine line = CommandLine.of(new String[] { "--backlog", "200_000", "--profiles", "1,000,000" });

		assertThat(line.number("--backlog", 0)).isEqualTo(200_000);
		assertThat(line.number("--profiles", 0)).isEqualTo(1_000_000);
	}

	@Test
	void theSettingsAreEveryNameEqualsValueInOrder() {
		CommandLine line = CommandLine.of(new String[] { "--seconds", "5", "--kindling.relay.batch-size=100", "--redis",
				"cluster", "--server.tomcat.threads.max=32" });

		assertThat(line.settings()).containsExactly("--kindling.relay.batch-size=100",
				"--server.tomcat.threads.max=32");
	}

}
