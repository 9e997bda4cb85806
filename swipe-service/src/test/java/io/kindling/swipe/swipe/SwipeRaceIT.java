package io.kindling.swipe.swipe;

import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisCallback;

/**
 * 500 pairs like each other at the same moment from different threads, every request sent
 * twice at once with the same key, beside 100 one-sided likes: exactly one match per
 * mutual pair, none for the others, whatever Redis does meanwhile.
 */
class SwipeRaceIT extends SwipeTestBase {

	@Autowired
	JsonMapper json;

	@Test
	void everyMutualPairMatchesExactlyOnceUnderRacesAndRetries() throws Exception {
		race(Disruption.NONE);
	}

	@Test
	void noMatchIsLostOrInventedWhenRedisIsFlushedHalfway() throws Exception {
		race(Disruption.FLUSHALL);
	}

	@Test
	void noMatchIsLostOrInventedWhenRedisIsDownForPartOfTheRun() throws Exception {
		race(Disruption.STOP_REDIS);
	}

	enum Disruption {

		NONE, FLUSHALL, STOP_REDIS

	}

	void race(Disruption disruption) throws Exception {
		this.flushed = false;
		RacingPairs race = new RacingPairs(newUsers(2 * (RacingPairs.PAIRS + RacingPairs.ONE_SIDED)));
		try {
			race.run((swipe, copy) -> this.api.swipe(swipe.userId(), swipe.key(), swipe.targetUserId(), "LIKE"),
					(done, total) -> disrupt(disruption, done, total));
		}
		finally {
			if (!RealServersExtension.redis().isRunning()) {
				RealServersExtension.redis().start();
			}
		}
		race.assertFinalState(this.jdbc, this.json);
	}

	private boolean flushed;

	private void disrupt(Disruption disruption, int done, int total) {
		switch (disruption) {
			case FLUSHALL -> {
				if (done >= total / 2 && !this.flushed) {
					this.flushed = true;
					this.redis.execute((RedisCallback<Void>) (connection) -> {
						connection.serverCommands().flushAll();
						return null;
					});
				}
			}
			case STOP_REDIS -> {
				if (done >= total / 4 && done < total / 2 && RealServersExtension.redis().isRunning()) {
					RealServersExtension.redis().stop();
				}
				if (done >= 3 * total / 4 && !RealServersExtension.redis().isRunning()) {
					RealServersExtension.redis().start();
				}
			}
			case NONE -> {
			}
		}
	}

}
