package io.kindling.consumer;

import java.nio.file.Path;

import io.kindling.infra.test.SettingsReference;
import org.junit.jupiter.api.Test;

/**
 * Every setting of the consumer's record is in {@code docs/settings.md} with the record's
 * default, and {@code application.yml} repeats none of those defaults.
 */
class SettingsDocumentationTests {

	@Test
	void everySettingIsDocumentedWithItsRecordsDefault() {
		SettingsReference.assertDocumented("io.kindling.consumer", SettingsReference.settingsDoc());
	}

	@Test
	void applicationYmlSetsOnlyWhatDiffersFromTheDefaults() {
		SettingsReference.assertNoDefaultRepeated("io.kindling.consumer",
				Path.of("src/main/resources/application.yml"));
	}

}
