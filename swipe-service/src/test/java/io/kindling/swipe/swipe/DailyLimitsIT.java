package io.kindling.swipe.swipe;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.kindling.infra.http.Response;
import io.kindling.swipe.deck.StoredDecks;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The daily limits hold against a client that sends many swipes at once and against one
 * that rewinds to get its swipes back (the test context's limits: 5 likes, 3 super likes
 * a day).
 */
class DailyLimitsIT extends SwipeTestBase {

	@Test
	void twentyParallelSuperLikesAgainstALimitOfThreeTakeExactlyThree() throws Exception {
		assertExactlyTakenInParallel("SUPER_LIKE", 3);
	}

	@Test
	void twentyParallelLikesAgainstALimitOfFiveTakeExactlyFive() throws Exception {
		assertExactlyTakenInParallel("LIKE", 5);
	}

	@Test
	void aRewoundSuperLikeStillCountsSoTheFourthIsRefused() {
		long ana = newUser();
		long ben = newUser();
		for (int round = 1; round <= 3; round++) {
			Response superLike = this.api.swipe(ana, key(), ben, "SUPER_LIKE");
			assertThat(superLike.status()).as("round %d: %s", round, superLike.body()).isEqualTo(200);
			assertThat(this.api.delete("/api/swipes/last", ana).status()).isEqualTo(204);
		}
		assertThat(StoredDecks.generation(this.redis, ben)).as("ben's deck thrown away, once per super like")
			.isEqualTo(3);

		Response fourth = this.api.swipe(ana, key(), ben, "SUPER_LIKE");
		assertThat(fourth.status()).as(fourth.body()).isEqualTo(429);
		assertThat(fourth.json().get("type").asString()).isEqualTo("https://kindling.io/problems/daily-limit-reached");
		assertThat(fourth.header("Retry-After")).isPresent();
		assertThat(StoredDecks.generation(this.redis, ben)).as("a refused super like leaves ben's deck alone")
			.isEqualTo(3);
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isEqualTo(3);
		// a like has its own budget, and ana may still like ben
		assertThat(this.api.swipe(ana, key(), ben, "LIKE").status()).isEqualTo(200);
	}

	private void assertExactlyTakenInParallel(String action, int limit) throws Exception {
		long ana = newUser();
		List<Long> targets = newUsers(20);
		CountDownLatch go = new CountDownLatch(1);
		List<Future<Response>> answers = new ArrayList<>();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			for (long target : targets) {
				answers.add(threads.submit(() -> {
					go.await();
					return this.api.swipe(ana, key(), target, action);
				}));
			}
			go.countDown();
			List<Integer> statuses = new ArrayList<>();
			for (Future<Response> answer : answers) {
				statuses.add(answer.get().status());
			}
			assertThat(statuses).filteredOn((status) -> status == 200).hasSize(limit);
			assertThat(statuses).filteredOn((status) -> status != 200).hasSize(20 - limit).containsOnly(429);
		}
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isEqualTo(limit);
		assertThat(count("SELECT used FROM daily_swipe_counts WHERE user_id = " + ana)).isEqualTo(limit);
	}

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

}
