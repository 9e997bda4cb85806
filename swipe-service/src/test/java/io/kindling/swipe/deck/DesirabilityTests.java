package io.kindling.swipe.deck;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

class DesirabilityTests {

	@Test
	void evenlyRatedPlayersMoveByHalfOfK() {
		assertThat(Desirability.change(1000, 1000, 1)).isCloseTo(8.0, offset(1e-9));
		assertThat(Desirability.change(1000, 1000, 0)).isCloseTo(-8.0, offset(1e-9));
	}

	@Test
	void aLikeFromAMoreDesirableSwiperCountsForMoreAndAPassFromALessDesirableOneHurtsMore() {
		// 400 points apart: the expected result is 10 to 1.
		assertThat(Desirability.change(1000, 1400, 1)).isCloseTo(16.0 * 10 / 11, offset(1e-9));
		assertThat(Desirability.change(1400, 1000, 0)).isCloseTo(-16.0 * 10 / 11, offset(1e-9));
		assertThat(Desirability.change(1400, 1000, 1)).isCloseTo(16.0 / 11, offset(1e-9));
	}

}
