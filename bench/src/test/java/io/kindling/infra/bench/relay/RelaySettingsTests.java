package io.kindling.infra.bench.relay;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class RelaySettingsTests {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@Test
	void aDurationWrittenAsIsoTextIsRead() {
		assertThat(RelaySettings.duration(JSON.readTree("\"PT1S\""))).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void aDurationWrittenAsSecondsIsRead() {
		assertThat(RelaySettings.duration(JSON.readTree("0.005"))).isEqualTo(Duration.ofMillis(5));
	}

}
