package io.kindling.swipe;

import java.nio.file.Path;

import io.kindling.infra.test.SettingsReference;
import org.junit.jupiter.api.Test;

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

}
