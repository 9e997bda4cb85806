package io.kindling.infra.bench.relay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class RelaySettingTests {

	@TempDir
	Path dir;

	@Test
	void readsTheRelaysOwnSettingNotANestedOneOfTheSameName() throws Exception {
		Path config = write("""
				spring:
				  relay:
				    batch-size: 7
				kindling:
				  relay:
				    # a comment
				    batch-size: 4000
				    workers-per-source: 2
				    cleanup:
				      batch-size: 1000
				""");

		assertThat(RelayBench.relaySetting(List.of(), config, "batch-size")).isEqualTo(4000);
		assertThat(RelayBench.relaySetting(List.of(), config, "workers-per-source")).isEqualTo(2);
	}

	@Test
	void theCommandLineWinsAndItsLastValueCounts() throws Exception {
		Path config = write("""
				kindling:
				  relay:
				    batch-size: 4000
				""");

		assertThat(RelayBench.relaySetting(
				List.of("--kindling.relay.batch-size=500", "--kindling.relay.batch-size=800"), config, "batch-size"))
			.isEqualTo(800);
	}

	@Test
	void aMissingSettingIsAnError() throws Exception {
		Path config = write("""
				kindling:
				  relay:
				    batch-size: 4000
				""");

		assertThatIllegalStateException()
			.isThrownBy(() -> RelayBench.relaySetting(List.of(), config, "workers-per-source"));
	}

	@Test
	void theRelaysApplicationYmlHasBoth() throws Exception {
		Path config = Path.of("../outbox-relay/src/main/resources/application.yml");

		assertThat(RelayBench.relaySetting(List.of(), config, "batch-size")).isPositive();
		assertThat(RelayBench.relaySetting(List.of(), config, "workers-per-source")).isPositive();
	}

	private Path write(String yaml) throws Exception {
		return Files.writeString(this.dir.resolve("application.yml"), yaml);
	}

}
