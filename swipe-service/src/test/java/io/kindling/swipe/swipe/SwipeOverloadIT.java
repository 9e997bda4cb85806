package io.kindling.swipe.swipe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

import io.kindling.infra.http.Response;
import io.kindling.infra.test.TableLock;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flood of slow swipes on one instance: the four it takes wait on MariaDB (a test holds
 * the swipes' table), every one past them is refused at once with 503 overloaded and
 * Retry-After, health still answers, and afterwards each acknowledged like is stored once
 * with its one match, while a refused one left nothing and its retry is taken once.
 */
@TestPropertySource(properties = { "kindling.web.overload.limit=4", "kindling.web.overload.adaptive=false",
		"kindling.swipe.daily-likes=0" })
class SwipeOverloadIT extends SwipeTestBase {

	private static final int HELD = 4;

	private static final int PAIRS = 20;

	@Autowired
	DataSource dataSource;

	@Test
	void pastTheLimitSwipesAreRefusedAtOnceAndNothingAcknowledgedIsLostOrDoubled() throws Exception {
		List<Long> users = newUsers(2 * PAIRS);
		for (int pair = 0; pair < PAIRS; pair++) {
			assertThat(this.api.swipe(first(users, pair), "first-" + pair, second(users, pair), "LIKE").status())
				.isEqualTo(200);
		}
		List<Future<Response>> held = new ArrayList<>();
		List<Response> refused = new ArrayList<>();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			try (TableLock lock = TableLock.hold(this.dataSource, "swipe_history")) {
				for (int pair = 0; pair < HELD; pair++) {
					int which = pair;
					held.add(threads.submit(() -> likeBack(users, which)));
				}
				lock.awaitWaiting(HELD, Duration.ofSeconds(60));

				for (int pair = HELD; pair < PAIRS; pair++) {
					refused.add(likeBack(users, pair));
				}
				assertThat(this.api.http().get("/actuator/health", null).status()).isEqualTo(200);
				// every refusal came while the four still waited: none queued for a
				// place
				assertThat(held).noneMatch(Future::isDone);
			}
			for (Response answer : refused) {
				assertThat(answer.status()).as(answer.body()).isEqualTo(503);
				assertThat(answer.header("Retry-After")).hasValue("1");
				assertThat(answer.field("type")).isEqualTo("https://kindling.io/problems/overloaded");
			}
			for (Future<Response> answer : held) {
				assertThat(answer.get().status()).as(answer.get().body()).isEqualTo(200);
				assertThat(answer.get().json().get("matched").asBoolean()).isTrue();
			}
		}
		for (int pair = 0; pair < PAIRS; pair++) {
			assertThat(swipesOf(second(users, pair))).isEqualTo((pair < HELD) ? 1 : 0);
			assertThat(matchesOf(first(users, pair))).isEqualTo((pair < HELD) ? 1 : 0);
		}

		// nothing was done, so the same request again is the first of its kind
		for (int pair = HELD; pair < PAIRS; pair++) {
			Response retried = likeBack(users, pair);
			assertThat(retried.status()).as(retried.body()).isEqualTo(200);
			assertThat(retried.header("Idempotent-Replayed")).isEmpty();
		}
		for (int pair = 0; pair < PAIRS; pair++) {
			assertThat(likeBack(users, pair).header("Idempotent-Replayed")).hasValue("true");
			assertThat(swipesOf(second(users, pair))).isOne();
			assertThat(matchesOf(first(users, pair))).isOne();
		}
	}

	private Response likeBack(List<Long> users, int pair) {
		return this.api.swipe(second(users, pair), "back-" + pair, first(users, pair), "LIKE");
	}

	private long swipesOf(long userId) {
		return this.jdbc.sql("SELECT COUNT(*) FROM swipe_history WHERE user_id = :user")
			.param("user", userId)
			.query(Long.class)
			.single();
	}

	private long matchesOf(long userId) {
		return this.jdbc.sql("SELECT COUNT(*) FROM matches WHERE user_id_1 = :user OR user_id_2 = :user")
			.param("user", userId)
			.query(Long.class)
			.single();
	}

	private static long first(List<Long> users, int pair) {
		return users.get(2 * pair);
	}

	private static long second(List<Long> users, int pair) {
		return users.get(2 * pair + 1);
	}

}
