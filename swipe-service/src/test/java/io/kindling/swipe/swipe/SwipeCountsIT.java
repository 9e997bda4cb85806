package io.kindling.swipe.swipe;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counters the operators' console charts: a stored swipe counts once by its action
 * (never a replay or a refusal), a match once it is made.
 */
class SwipeCountsIT extends SwipeTestBase {

	@Autowired
	MeterRegistry registry;

	@Test
	void aSwipeCountsOnceAndAMatchOnce() {
		long ana = newUser();
		long ben = newUser();
		double likes = count("kindling.swipe.swipes", "LIKE");
		double matches = this.registry.get("kindling.swipe.matches.created").counter().count();

		String key = key();
		this.api.swipe(ana, key, ben, "LIKE");
		this.api.swipe(ana, key, ben, "LIKE");
		this.api.swipe(ana, key(), ana, "LIKE");
		this.api.swipe(ben, key(), ana, "LIKE");

		assertThat(count("kindling.swipe.swipes", "LIKE") - likes).isEqualTo(2);
		assertThat(this.registry.get("kindling.swipe.matches.created").counter().count() - matches).isEqualTo(1);
	}

	private double count(String name, String action) {
		return this.registry.get(name).tag("action", action).counter().count();
	}

}
