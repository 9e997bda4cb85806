package io.kindling.infra.bench;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BenchStackTests {

	@Test
	void aLaterSettingReplacesAnEarlierOneOfTheSameName() {
		List<String> settings = BenchStack.lastOfEachName(List.of("--logging.level.root=WARN",
				"--kindling.swipe.daily-likes=0", "--logging.level.root=INFO", "--flag"));

		// Spring would join the two values of one property with a comma
		assertThat(settings).containsExactly("--kindling.swipe.daily-likes=0", "--logging.level.root=INFO", "--flag");
	}

}
