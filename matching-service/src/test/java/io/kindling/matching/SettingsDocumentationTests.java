package io.kindling.matching;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.kindling.infra.test.SettingsReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every setting of this service's records (its own and the outbox's) is in
 * {@code docs/settings.md} with the record's default, and {@code application.yml} repeats
 * none of those defaults.
 */
class SettingsDocumentationTests {

	@Test
	void everySettingIsDocumentedWithItsRecordsDefault() {
		SettingsReference.assertDocumented("io.kindling", SettingsReference.settingsDoc());
	}

	@Test
	void applicationYmlSetsOnlyWhatDiffersFromTheDefaults() {
		SettingsReference.assertNoDefaultRepeated("io.kindling", Path.of("src/main/resources/application.yml"));
	}

	@Test
	void aSettingLeftOutOrDocumentedWithAnotherDefaultFails(@TempDir Path dir) throws IOException {
		String document = Files.readString(SettingsReference.settingsDoc());
		Path without = Files.writeString(dir.resolve("without.md"),
				document.replaceAll("(?m)^\\| `kindling\\.matching\\.room-ttl` .*\\n", ""));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> SettingsReference.assertDocumented("io.kindling", without))
			.withMessageContaining("kindling.matching.room-ttl (default `10m`) is not in");
		Path otherDefault = Files.writeString(dir.resolve("other.md"),
				document.replace("| `kindling.outbox.wake-up-address` | `127.0.0.1:8083` |",
						"| `kindling.outbox.wake-up-address` | `127.0.0.1:9999` |"));
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> SettingsReference.assertDocumented("io.kindling", otherDefault))
			.withMessageContaining("kindling.outbox.wake-up-address is documented with default `127.0.0.1:9999`");

		Path yml = Files.writeString(dir.resolve("application.yml"), """
				kindling:
				  matching:
				    wait-timeout: 5m
				    fallback-after: 30s
				""");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> SettingsReference.assertNoDefaultRepeated("io.kindling", yml))
			.withMessageContaining("kindling.matching.wait-timeout: 5m repeats its record's default")
			.withMessageNotContaining("fallback-after");
	}

}
