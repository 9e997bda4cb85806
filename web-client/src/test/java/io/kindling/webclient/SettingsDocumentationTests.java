package io.kindling.webclient;

import java.nio.file.Path;

import io.kindling.infra.test.SettingsReference;
import org.junit.jupiter.api.Test;

/**
 * Every setting of the web client's record is in {@code docs/settings.md} with the
 * record's default, and {@code application.yml} repeats none of those defaults.
 */
class SettingsDocumentationTests {

	@Test
	void everySettingIsDocumentedWithItsRecordsDefault() {
		SettingsReference.assertDocumented("io.kindling.webclient", SettingsReference.settingsDoc());
	}

	@Test
	void applicationYmlSetsOnlyWhatDiffersFromTheDefaults() {
		SettingsReference.assertNoDefaultRepeated("io.kindling.webclient",
				Path.of("src/main/resources/application.yml"));
	}

}
