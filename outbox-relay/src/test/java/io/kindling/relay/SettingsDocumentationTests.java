package io.kindling.relay;

import java.nio.file.Path;

import io.kindling.infra.test.SettingsReference;
import org.junit.jupiter.api.Test;

/**
 * Every setting of the relay's records is in {@code docs/settings.md} with the record's
 * default, and {@code application.yml} repeats none of those defaults but the two the
 * relay bench reads from it.
 */
class SettingsDocumentationTests {

	@Test
	void everySettingIsDocumentedWithItsRecordsDefault() {
		SettingsReference.assertDocumented("io.kindling.relay", SettingsReference.settingsDoc());
	}

	@Test
	void applicationYmlSetsOnlyWhatDiffersFromTheDefaults() {
		SettingsReference.assertNoDefaultRepeated("io.kindling.relay", Path.of("src/main/resources/application.yml"),
				"kindling.relay.batch-size", "kindling.relay.workers-per-source");
	}

}
