package io.kindling.swipe.deck;

import io.kindling.swipe.swipe.SwipeRecorded;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The Elo-style desirability score: a swipe is a game between swiper and target that the
 * target wins with a like and loses with a pass. A like from someone rated above the
 * target lifts it more than a like from someone below, and a pass costs less.
 */
@Component
class Desirability {

	/** Elo's K factor: the most one swipe can move a score. */
	static final double K = 16;

	private final JdbcClient jdbc;

	Desirability(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@EventListener
	void on(SwipeRecorded swipe) {
		double won = "PASS".equals(swipe.action()) ? 0 : 1;
		// a plain read of the swiper's score, then one row locked: two people swiping
		// each
		// other at the same moment must not deadlock on each other's profile rows
		Double swiperScore = this.jdbc.sql("SELECT desirability FROM profiles WHERE user_id = :swiperId")
			.param("swiperId", swipe.userId())
			.query(Double.class)
			.optional()
			.orElse(null);
		if (swiperScore == null) {
			return;
		}
		this.jdbc.sql("""
				UPDATE profiles
				SET desirability = desirability + :k * (:won - 1 / (1 + POW(10, (:swiperScore - desirability) / 400)))
				WHERE user_id = :targetId
				""")
			.param("targetId", swipe.targetUserId())
			.param("k", K)
			.param("won", won)
			.param("swiperScore", swiperScore)
			.update();
	}

}
