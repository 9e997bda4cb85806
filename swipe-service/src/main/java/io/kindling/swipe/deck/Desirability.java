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
		this.jdbc.sql("""
				UPDATE profiles target JOIN profiles swiper ON swiper.user_id = :swiperId
				SET target.desirability = target.desirability
				    + :k * (:won - 1 / (1 + POW(10, (swiper.desirability - target.desirability) / 400)))
				WHERE target.user_id = :targetId
				""")
			.param("swiperId", swipe.userId())
			.param("targetId", swipe.targetUserId())
			.param("k", K)
			.param("won", won)
			.update();
	}

}
