package io.kindling.swipe.swipe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.http.Response;
import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 500 pairs like each other at the same moment from different threads, every request sent
 * twice at once with the same key, beside 100 one-sided likes: exactly one match per
 * mutual pair, none for the others, whatever Redis does meanwhile.
 */
class SwipeRaceIT extends SwipeTestBase {

	static final int PAIRS = 500;

	static final int ONE_SIDED = 100;

	static final int IN_FLIGHT = 48;

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

	private record Swipe(long userId, long targetUserId, String key) {

	}

	void race(Disruption disruption) throws Exception {
		this.flushed = false;
		List<Long> users = newUsers(2 * PAIRS + 2 * ONE_SIDED);
		List<Swipe> swipes = new ArrayList<>();
		for (int i = 0; i < PAIRS; i++) {
			long a = users.get(2 * i);
			long b = users.get(2 * i + 1);
			swipes.add(new Swipe(a, b, key()));
			swipes.add(new Swipe(b, a, key()));
		}
		for (int i = 0; i < ONE_SIDED; i++) {
			long liker = users.get(2 * PAIRS + 2 * i);
			long passer = users.get(2 * PAIRS + 2 * i + 1);
			swipes.add(new Swipe(liker, passer, key()));
		}
		// each pair's two likes and their two retries are sent back to back, so all four
		// are in flight at the same moment on different threads
		List<List<Swipe>> groups = new ArrayList<>();
		for (int i = 0; i < PAIRS; i++) {
			List<Swipe> group = new ArrayList<>(
					List.of(swipes.get(2 * i), swipes.get(2 * i), swipes.get(2 * i + 1), swipes.get(2 * i + 1)));
			Collections.shuffle(group);
			groups.add(group);
		}
		for (int i = 0; i < ONE_SIDED; i++) {
			groups.add(List.of(swipes.get(2 * PAIRS + i), swipes.get(2 * PAIRS + i)));
		}
		Collections.shuffle(groups);
		List<Swipe> requests = groups.stream().flatMap(List::stream).toList();

		Map<String, List<String>> bodiesByKey = new ConcurrentHashMap<>();
		AtomicInteger done = new AtomicInteger();
		Semaphore inFlight = new Semaphore(IN_FLIGHT);
		int total = requests.size();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			List<Future<?>> futures = new ArrayList<>();
			for (Swipe swipe : requests) {
				inFlight.acquire();
				futures.add(threads.submit(() -> {
					try {
						Response response = this.api.swipe(swipe.userId(), swipe.key(), swipe.targetUserId(), "LIKE");
						assertThat(response.status()).as(response.body()).isEqualTo(200);
						bodiesByKey
							.computeIfAbsent(swipe.key(), (k) -> new java.util.concurrent.CopyOnWriteArrayList<>())
							.add(response.body());
					}
					finally {
						done.incrementAndGet();
						inFlight.release();
					}
				}));
				disrupt(disruption, done.get(), total);
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			if (!RealServersExtension.redis().isRunning()) {
				RealServersExtension.redis().start();
			}
		}

		String ids = users.stream().map(String::valueOf).reduce((x, y) -> x + "," + y).orElseThrow();
		assertThat(count("SELECT COUNT(*) FROM matches WHERE user_id_1 IN (" + ids + ")")).isEqualTo(PAIRS);
		assertThat(count("SELECT COUNT(*) FROM match_outbox o JOIN matches m"
				+ " ON o.event_key = CONCAT(m.user_id_1, ':', m.user_id_2)"
				+ " WHERE o.event_type = 'MATCH_CREATED' AND m.user_id_1 IN (" + ids + ")"))
			.isEqualTo(PAIRS);
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id IN (" + ids + ")")).isEqualTo(swipes.size());
		assertThat(
				count("SELECT COUNT(*) FROM swipe_history WHERE response_status IS NULL AND user_id IN (" + ids + ")"))
			.isZero();

		Map<Long, Long> matchOfUser = new HashMap<>();
		this.jdbc.sql("SELECT match_id, user_id_1, user_id_2 FROM matches WHERE user_id_1 IN (" + ids + ")")
			.query((rs) -> {
				matchOfUser.put(rs.getLong("user_id_1"), rs.getLong("match_id"));
				matchOfUser.put(rs.getLong("user_id_2"), rs.getLong("match_id"));
			});
		Map<String, Map<String, Object>> rows = new HashMap<>();
		this.jdbc
			.sql("SELECT request_id, user_id, response_status, match_id FROM swipe_history WHERE user_id IN (" + ids
					+ ")")
			.query()
			.listOfRows()
			.forEach((row) -> rows.put((String) row.get("request_id"), row));
		for (int i = 0; i < PAIRS; i++) {
			Swipe aLikesB = swipes.get(2 * i);
			Swipe bLikesA = swipes.get(2 * i + 1);
			long matchId = matchOfUser.get(aLikesB.userId());
			boolean aMatched = consistent(aLikesB, bodiesByKey, rows, matchId);
			boolean bMatched = consistent(bLikesA, bodiesByKey, rows, matchId);
			assertThat(aMatched || bMatched).as("pair %d: one side learns of the match", i).isTrue();
		}
		for (int i = 0; i < ONE_SIDED; i++) {
			Swipe oneSided = swipes.get(2 * PAIRS + i);
			assertThat(matchOfUser).doesNotContainKey(oneSided.userId());
			assertThat(consistent(oneSided, bodiesByKey, rows, -1)).isFalse();
		}
	}

	/**
	 * Both copies of the request got the same bytes, and they say what the table says.
	 */
	private boolean consistent(Swipe swipe, Map<String, List<String>> bodiesByKey,
			Map<String, Map<String, Object>> rows, long matchId) {
		List<String> bodies = bodiesByKey.get(swipe.key());
		assertThat(bodies).hasSize(2);
		assertThat(bodies.get(0)).isEqualTo(bodies.get(1));
		JsonNode response = this.json.readTree(bodies.get(0));
		Map<String, Object> row = rows.get(swipe.key());
		boolean matched = response.get("matched").asBoolean();
		assertThat(((Number) row.get("response_status")).intValue()).isEqualTo(matched ? 1 : 0);
		if (matched) {
			assertThat(response.get("match_id").asLong()).isEqualTo(matchId);
			assertThat(row.get("match_id")).isEqualTo(matchId);
		}
		else {
			assertThat(response.get("match_id").isNull()).isTrue();
		}
		return matched;
	}

	private boolean flushed;

	private void disrupt(Disruption disruption, int done, int total) {
		switch (disruption) {
			case FLUSHALL -> {
				if (done >= total / 2 && !this.flushed) {
					this.flushed = true;
					this.redis.execute((org.springframework.data.redis.core.RedisCallback<Void>) (connection) -> {
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

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

}
