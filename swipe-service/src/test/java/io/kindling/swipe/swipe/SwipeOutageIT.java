package io.kindling.swipe.swipe;

import io.kindling.infra.http.Response;
import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB holds the truth of every swipe, so while it is away a swipe is a 503 the client
 * retries with the same key, never a 500 or a hang, and the retry after it is back is
 * taken once.
 */
class SwipeOutageIT extends SwipeTestBase {

	@Autowired
	JsonMapper json;

	@Test
	void whileMariaDbIsAwayASwipeIs503AndItsRetryAfterwardsIsTakenOnce() throws InterruptedException {
		long ana = newUser();
		long ben = newUser();
		String key = key();
		RealServersExtension.mariaDb().stop();
		try {
			long started = System.nanoTime();
			Response refused = this.api.swipe(ana, key, ben, "LIKE");
			long tookMillis = (System.nanoTime() - started) / 1_000_000;
			assertThat(refused.status()).as(refused.body()).isEqualTo(503);
			assertThat(refused.header("Retry-After")).contains("1");
			JsonNode problem = this.json.readTree(refused.body());
			assertThat(problem.get("type").asString()).isEqualTo("https://kindling.io/problems/unavailable");
			assertThat(problem.get("status").asInt()).isEqualTo(503);
			// the pool's connection timeout, not Hikari's default 30 s
			assertThat(tookMillis).isLessThan(10_000);
		}
		finally {
			RealServersExtension.mariaDb().start();
		}
		// as a client retries: a pooled connection that the restart broke answers one
		// more 503 before the pool drops it
		Response retried = this.api.swipe(ana, key, ben, "LIKE");
		for (int attempt = 1; retried.status() == 503 && attempt < 10; attempt++) {
			Thread.sleep(1_000);
			retried = this.api.swipe(ana, key, ben, "LIKE");
		}
		assertThat(retried.status()).as(retried.body()).isEqualTo(200);
		assertThat(this.api.swipe(ana, key, ben, "LIKE").header("Idempotent-Replayed")).contains("true");
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM swipe_history WHERE user_id = :ana")
			.param("ana", ana)
			.query(Long.class)
			.single()).isOne();
	}

}
