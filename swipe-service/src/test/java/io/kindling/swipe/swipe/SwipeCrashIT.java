package io.kindling.swipe.swipe;

import java.time.Duration;

import io.kindling.infra.http.Response;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process that dies between TX 1, the script and TX 2 leaves the swipe undecided; the
 * reconciler decides it later, and the client's retry then gets the finished answer.
 */
class SwipeCrashIT extends SwipeTestBase {

	@Autowired
	JsonMapper json;

	@Test
	void aCrashAfterTheFirstTransactionIsFinishedByTheReconciler() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		this.crashes.crashAfterFirstTransaction(ben);
		String key = key();
		assertThat(this.api.swipe(ben, key, ana, "LIKE").status()).isEqualTo(500);
		assertThat(status(ben)).isNull();

		this.reconciler.reconcile();
		assertThat(status(ben)).as("too fresh to be taken over yet").isNull();
		this.clock.advance(Duration.ofSeconds(11));
		this.reconciler.reconcile();
		this.reconciler.reconcile();

		assertThat(status(ben)).isEqualTo(1);
		assertOneMatchWithOneEvent(ana, ben);
		Response retry = this.api.swipe(ben, key, ana, "LIKE");
		assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
		JsonNode answer = this.json.readTree(retry.body());
		assertThat(answer.get("matched").asBoolean()).isTrue();
	}

	@Test
	void aCrashAfterTheScriptIsFinishedByTheReconciler() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		this.crashes.crashAfterScript(ben);
		String key = key();
		assertThat(this.api.swipe(ben, key, ana, "LIKE").status()).isEqualTo(500);
		// Redis already said "mutual" and recorded the request; only MySQL can now tell
		assertThat(this.redis.opsForHash().hasKey(MutualLikeScript.pairKey(ana, ben), "request:" + key)).isTrue();
		assertThat(status(ben)).isNull();

		this.clock.advance(Duration.ofSeconds(11));
		this.reconciler.reconcile();

		assertThat(status(ben)).isEqualTo(1);
		assertOneMatchWithOneEvent(ana, ben);
		JsonNode answer = this.json.readTree(this.api.swipe(ben, key, ana, "LIKE").body());
		assertThat(answer.get("matched").asBoolean()).isTrue();
	}

	@Test
	void aRetryFinishesACrashedSwipeItselfWithoutWaitingForTheReconciler() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		this.crashes.crashAfterScript(ben);
		String key = key();
		assertThat(this.api.swipe(ben, key, ana, "LIKE").status()).isEqualTo(500);

		Response retry = this.api.swipe(ben, key, ana, "LIKE");
		assertThat(retry.status()).isEqualTo(200);
		assertThat(this.json.readTree(retry.body()).get("matched").asBoolean()).isTrue();
		this.clock.advance(Duration.ofSeconds(11));
		this.reconciler.reconcile();
		assertOneMatchWithOneEvent(ana, ben);
		assertThat(this.api.swipe(ben, key, ana, "LIKE").body()).isEqualTo(retry.body());
	}

	@Test
	void aCrashedOneSidedLikeIsFinishedAsANonMatch() {
		long ana = newUser();
		long ben = newUser();
		this.crashes.crashAfterFirstTransaction(ana);
		this.api.swipe(ana, key(), ben, "LIKE");
		this.clock.advance(Duration.ofSeconds(11));
		this.reconciler.reconcile();
		assertThat(status(ana)).isZero();
		assertThat(count("SELECT COUNT(*) FROM matches WHERE user_id_1 = " + Math.min(ana, ben))).isZero();
	}

	private void assertOneMatchWithOneEvent(long a, long b) {
		long low = Math.min(a, b);
		long high = Math.max(a, b);
		assertThat(count("SELECT COUNT(*) FROM matches WHERE user_id_1 = " + low + " AND user_id_2 = " + high)).isOne();
		assertThat(count("SELECT COUNT(*) FROM match_outbox WHERE event_key = '" + low + ":" + high + "'")).isOne();
	}

	private @Nullable Integer status(long userId) {
		return this.jdbc.sql("SELECT response_status FROM swipe_history WHERE user_id = :u")
			.param("u", userId)
			.query((rs, row) -> {
				int status = rs.getInt(1);
				return rs.wasNull() ? null : status;
			})
			.list()
			.get(0);
	}

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

}
