package io.kindling.swipe.swipe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.http.Response;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 500 pairs like each other at the same moment from different threads, every request sent
 * twice at once with the same key, beside 100 one-sided likes; and what must hold once
 * they are all answered, whatever Redis did meanwhile: exactly one match and one
 * {@code MATCH_CREATED} per mutual pair, none for the others, no undecided swipe, both
 * copies of a request answered with the same bytes, which say what the tables say.
 */
final class RacingPairs {

	static final int PAIRS = 500;

	static final int ONE_SIDED = 100;

	static final int IN_FLIGHT = 48;

	record Swipe(long userId, long targetUserId, String key) {

	}

	/** Sends one copy (0 or 1) of a like and returns its final answer. */
	@FunctionalInterface
	interface Sender {

		Response send(Swipe swipe, int copy) throws Exception;

	}

	/**
	 * Called on the sending thread after each request is handed to a client thread, with
	 * how many are answered so far: the place to disrupt Redis mid-run.
	 */
	@FunctionalInterface
	interface Progress {

		void answered(int done, int total) throws Exception;

	}

	final List<Long> users;

	/** Each pair's two likes (a then b), then the one-sided likes. */
	final List<Swipe> swipes = new ArrayList<>();

	final Map<String, List<String>> bodiesByKey = new ConcurrentHashMap<>();

	private final AtomicInteger done = new AtomicInteger();

	/**
	 * @param users {@code 2 * (PAIRS + ONE_SIDED)} users with profiles
	 */
	RacingPairs(List<Long> users) {
		assertThat(users).hasSize(2 * (PAIRS + ONE_SIDED));
		this.users = users;
		for (int i = 0; i < PAIRS; i++) {
			long a = users.get(2 * i);
			long b = users.get(2 * i + 1);
			this.swipes.add(new Swipe(a, b, SwipeTestBase.key()));
			this.swipes.add(new Swipe(b, a, SwipeTestBase.key()));
		}
		for (int i = 0; i < ONE_SIDED; i++) {
			long liker = users.get(2 * PAIRS + 2 * i);
			long passer = users.get(2 * PAIRS + 2 * i + 1);
			this.swipes.add(new Swipe(liker, passer, SwipeTestBase.key()));
		}
	}

	Swipe oneSided(int i) {
		return this.swipes.get(2 * PAIRS + i);
	}

	int answered() {
		return this.done.get();
	}

	/** Sends every request twice, {@link #IN_FLIGHT} at a time, each expecting a 200. */
	void run(Sender sender, Progress progress) throws Exception {
		// each pair's two likes and their two retries are sent back to back, so all four
		// are in flight at the same moment on different threads
		List<List<Swipe>> groups = new ArrayList<>();
		for (int i = 0; i < PAIRS; i++) {
			List<Swipe> group = new ArrayList<>(List.of(this.swipes.get(2 * i), this.swipes.get(2 * i),
					this.swipes.get(2 * i + 1), this.swipes.get(2 * i + 1)));
			Collections.shuffle(group);
			groups.add(group);
		}
		for (int i = 0; i < ONE_SIDED; i++) {
			groups.add(List.of(oneSided(i), oneSided(i)));
		}
		Collections.shuffle(groups);
		Map<String, AtomicInteger> copies = new HashMap<>();
		Semaphore inFlight = new Semaphore(IN_FLIGHT);
		int total = groups.stream().mapToInt(List::size).sum();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			List<Future<?>> futures = new ArrayList<>();
			for (List<Swipe> group : groups) {
				for (Swipe swipe : group) {
					int copy = copies.computeIfAbsent(swipe.key(), (k) -> new AtomicInteger()).getAndIncrement();
					inFlight.acquire();
					futures.add(threads.submit(() -> {
						try {
							Response response = sender.send(swipe, copy);
							assertThat(response.status()).as(response.body()).isEqualTo(200);
							this.bodiesByKey.computeIfAbsent(swipe.key(), (k) -> new CopyOnWriteArrayList<>())
								.add(response.body());
						}
						finally {
							this.done.incrementAndGet();
							inFlight.release();
						}
						return null;
					}));
					progress.answered(this.done.get(), total);
				}
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}
	}

	/** What must hold once every request is answered. */
	void assertFinalState(JdbcClient jdbc, JsonMapper json) {
		String ids = this.users.stream().map(String::valueOf).reduce((x, y) -> x + "," + y).orElseThrow();
		assertThat(count(jdbc, "SELECT COUNT(*) FROM matches WHERE user_id_1 IN (" + ids + ")")).isEqualTo(PAIRS);
		assertThat(count(jdbc,
				"SELECT COUNT(*) FROM match_outbox o JOIN matches m"
						+ " ON o.event_key = CONCAT(m.user_id_1, ':', m.user_id_2)"
						+ " WHERE o.event_type = 'MATCH_CREATED' AND m.user_id_1 IN (" + ids + ")"))
			.isEqualTo(PAIRS);
		assertThat(count(jdbc, "SELECT COUNT(*) FROM swipe_history WHERE user_id IN (" + ids + ")"))
			.isEqualTo(this.swipes.size());
		assertThat(count(jdbc,
				"SELECT COUNT(*) FROM swipe_history WHERE response_status IS NULL AND user_id IN (" + ids + ")"))
			.isZero();

		Map<Long, Long> matchOfUser = new HashMap<>();
		jdbc.sql("SELECT match_id, user_id_1, user_id_2 FROM matches WHERE user_id_1 IN (" + ids + ")").query((rs) -> {
			matchOfUser.put(rs.getLong("user_id_1"), rs.getLong("match_id"));
			matchOfUser.put(rs.getLong("user_id_2"), rs.getLong("match_id"));
		});
		Map<String, Map<String, Object>> rows = new HashMap<>();
		jdbc.sql("SELECT request_id, user_id, response_status, match_id FROM swipe_history WHERE user_id IN (" + ids
				+ ")")
			.query()
			.listOfRows()
			.forEach((row) -> rows.put((String) row.get("request_id"), row));
		for (int i = 0; i < PAIRS; i++) {
			Swipe aLikesB = this.swipes.get(2 * i);
			Swipe bLikesA = this.swipes.get(2 * i + 1);
			long matchId = matchOfUser.get(aLikesB.userId());
			boolean aMatched = consistent(aLikesB, rows, matchId, json);
			boolean bMatched = consistent(bLikesA, rows, matchId, json);
			assertThat(aMatched || bMatched).as("pair %d: one side learns of the match", i).isTrue();
		}
		for (int i = 0; i < ONE_SIDED; i++) {
			Swipe oneSided = oneSided(i);
			assertThat(matchOfUser).doesNotContainKey(oneSided.userId());
			assertThat(consistent(oneSided, rows, -1, json)).isFalse();
		}
	}

	/**
	 * Both copies of the request got the same bytes, and they say what the table says.
	 */
	private boolean consistent(Swipe swipe, Map<String, Map<String, Object>> rows, long matchId, JsonMapper json) {
		List<String> bodies = this.bodiesByKey.get(swipe.key());
		assertThat(bodies).hasSize(2);
		assertThat(bodies.get(0)).isEqualTo(bodies.get(1));
		JsonNode response = json.readTree(bodies.get(0));
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

	private static long count(JdbcClient jdbc, String sql) {
		return jdbc.sql(sql).query(Long.class).single();
	}

}
