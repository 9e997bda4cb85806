package io.kindling.swipe.block;

import java.util.List;

import io.kindling.infra.http.Response;
import io.kindling.swipe.deck.StoredDecks;
import io.kindling.swipe.swipe.SwipeTestBase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Someone who blocked you looks exactly like someone who does not exist: a swipe, a block
 * and a report of them get the answer a user id without a profile gets, byte for byte but
 * the id, and none of them changes anything of theirs (their deck, their likes, their
 * super likes) or of yours.
 */
class BlockerLooksMissingIT extends SwipeTestBase {

	/** An id nobody has: what every answer about a blocker is compared with. */
	private static final long NOBODY = 999_999_999_997L;

	@Test
	void swipingOnSomeoneWhoBlockedYouIsAnsweredAsSwipingOnNobodyAndChangesNothingOfTheirs() {
		long ana = newUser();
		long ben = newUser();
		assertThat(this.api.block(ben, ana).status()).isEqualTo(201);
		long benDeck = StoredDecks.generation(this.redis, ben);

		for (String action : List.of("LIKE", "SUPER_LIKE", "PASS")) {
			Response blocker = this.api.swipe(ana, key(), ben, action);
			Response missing = this.api.swipe(ana, key(), NOBODY, action);
			assertThat(missing.status()).isEqualTo(422);
			assertSameAnswer(blocker, ben, missing, NOBODY);
		}

		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isZero();
		assertThat(count("SELECT COUNT(*) FROM daily_swipe_counts WHERE user_id = " + ana + " AND used > 0")).isZero();
		assertThat(this.redis.opsForZSet().size("super_likes:{" + ben + "}")).as("ben's super likes").isZero();
		assertThat(StoredDecks.generation(this.redis, ben)).as("ben's deck is not thrown away").isEqualTo(benDeck);
		// once ben lifts the block, ana has liked him no more than before
		assertThat(this.api.delete("/api/blocks/" + ana, ben).status()).isEqualTo(204);
		assertThat(this.api.get("/api/likes", ben).json().get("likes")).isEmpty();
	}

	@Test
	void swipingOnSomeoneYouBlockedIsAnsweredAsSwipingOnNobodyToo() {
		long ana = newUser();
		long ben = newUser();
		assertThat(this.api.block(ana, ben).status()).isEqualTo(201);
		assertSameAnswer(this.api.swipe(ana, key(), ben, "LIKE"), ben, this.api.swipe(ana, key(), NOBODY, "LIKE"),
				NOBODY);
		assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE user_id = " + ana)).isZero();
	}

	@Test
	void aSwipeAcceptedBeforeTheBlockIsStillReplayedToItsRetry() {
		long ana = newUser();
		long ben = newUser();
		String key = key();
		Response before = this.api.swipe(ana, key, ben, "LIKE");
		assertThat(before.status()).isEqualTo(200);
		assertThat(this.api.block(ben, ana).status()).isEqualTo(201);

		Response retry = this.api.swipe(ana, key, ben, "LIKE");
		assertThat(retry.status()).isEqualTo(200);
		assertThat(retry.body()).isEqualTo(before.body());
		assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
	}

	@Test
	void blockingSomeoneWhoBlockedYouIsAnsweredAsBlockingNobodyAndWritesNothing() {
		long ana = newUser();
		long ben = newUser();
		assertThat(this.api.block(ben, ana).status()).isEqualTo(201);

		assertSameAnswer(this.api.block(ana, ben), ben, this.api.block(ana, NOBODY), NOBODY);
		assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + ana)).isZero();
		assertThat(this.api.get("/api/blocks", ana).json().get("blocks")).isEmpty();
		assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + ben)).isOne();
	}

	@Test
	void aBlockMadeFirstStaysYoursWhenTheOtherBlocksYouAfter() {
		long ana = newUser();
		long ben = newUser();
		Response first = this.api.block(ana, ben);
		assertThat(first.status()).isEqualTo(201);
		// ben is now the one blocked: his block of ana is answered as of nobody
		assertSameAnswer(this.api.block(ben, ana), ana, this.api.block(ben, NOBODY), NOBODY);
		// ana blocking again is answered as before: she knows of her own block
		Response again = this.api.block(ana, ben);
		assertThat(again.status()).isEqualTo(200);
		assertThat(again.body()).isEqualTo(first.body());
	}

	@Test
	void reportingSomeoneWhoBlockedYouIsAnsweredAsReportingNobodyAndKeepsNoReport() {
		long ana = newUser();
		long ben = newUser();
		assertThat(this.api.block(ben, ana).status()).isEqualTo(201);

		assertSameAnswer(report(ana, ben), ben, report(ana, NOBODY), NOBODY);
		assertThat(count("SELECT COUNT(*) FROM user_reports WHERE reporter_id = " + ana)).isZero();
		assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + ana)).isZero();
	}

	@Test
	void theBlockersProfileIsAnsweredAsNobodysAlready() {
		long ana = newUser();
		long ben = newUser();
		assertThat(this.api.block(ben, ana).status()).isEqualTo(201);
		assertSameAnswer(this.api.get("/api/profiles/" + ben, ana), ben, this.api.get("/api/profiles/" + NOBODY, ana),
				NOBODY);
	}

	private Response report(long reporter, long reported) {
		return this.api.post("/api/reports", reporter, "{\"user_id\":" + reported + ",\"reason\":\"HARASSMENT\"}");
	}

	/**
	 * The same status, headers that matter and body, once each answer's id is taken out.
	 */
	private static void assertSameAnswer(Response about, long aboutId, Response aboutNobody, long nobodyId) {
		assertThat(about.status()).as(about.body()).isEqualTo(aboutNobody.status());
		assertThat(about.header("Content-Type")).isEqualTo(aboutNobody.header("Content-Type"));
		assertThat(about.body().replace(String.valueOf(aboutId), "{id}"))
			.isEqualTo(aboutNobody.body().replace(String.valueOf(nobodyId), "{id}"));
	}

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

}
