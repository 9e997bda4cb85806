package io.kindling.swipe.deck;

import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Super likes and boosts live in Redis only as the deck's fast path; MySQL is their
 * truth. Redis is flushed (and the flush proven) between a super like and its target's
 * next deck, and between a boost and a viewer's next deck: the super liker still comes
 * first, the boost still shows, and its cooldown still holds.
 */
class RebuiltAfterFlushIT extends DeckTestSupport {

	@Test
	void aSuperLikerStillComesFirstAfterRedisWasFlushed() {
		double[] at = place(55.68, 12.57);
		long viewer = 8_100_000;
		save(Person.woman(viewer, at[0], at[1]));
		LongStream.rangeClosed(viewer + 1, viewer + 20)
			.forEach((id) -> save(Person.man(id, at[0], at[1]).desirability(1500)));
		long superLiker = viewer + 21;
		long answered = viewer + 22;
		save(Person.man(superLiker, at[0], at[1]).desirability(500));
		save(Person.man(answered, at[0], at[1]).desirability(500));
		assertThat(swipeOverApi(answered, viewer, "SUPER_LIKE").status()).isEqualTo(HttpStatus.OK.value());
		assertThat(swipeOverApi(viewer, answered, "PASS").status()).isEqualTo(HttpStatus.OK.value());
		assertThat(swipeOverApi(superLiker, viewer, "SUPER_LIKE").status()).isEqualTo(HttpStatus.OK.value());
		assertThat(this.redis.opsForZSet().score("super_likes:{" + viewer + "}", String.valueOf(superLiker)))
			.isNotNull();

		flushRedis();
		assertThat(this.redis.hasKey("super_likes:{" + viewer + "}")).isFalse();

		List<JsonNode> cards = page(viewer, 100);
		assertThat(ids(cards).get(0)).isEqualTo(superLiker);
		assertThat(cards.get(0).get("super_liked_you").asBoolean()).isTrue();
		assertThat(cards.subList(1, cards.size())).noneMatch((card) -> card.get("super_liked_you").asBoolean());
		assertThat(ids(cards)).doesNotContain(answered);
		// rebuilt: the set and its mark are back, expiring when the super like does
		assertThat(this.redis.opsForZSet().score("super_likes:{" + viewer + "}", String.valueOf(superLiker)))
			.isEqualTo((double) this.clock.instant().plus(Duration.ofHours(24)).toEpochMilli());
		assertThat(this.redis.hasKey("super_likes_loaded:{" + viewer + "}")).isTrue();

		// and it expires as before
		this.clock.advance(Duration.ofHours(24).plusSeconds(1));
		flushRedis();
		List<JsonNode> later = page(viewer, 100);
		assertThat(later).noneMatch((card) -> card.get("super_liked_you").asBoolean());
	}

	@Test
	void aBoostStillShowsAfterRedisWasFlushedAndItsCooldownStillHolds() {
		double[] at = place(47.37, 8.54);
		long viewer = 8_200_000;
		save(Person.woman(viewer, at[0], at[1]));
		LongStream.rangeClosed(viewer + 1, viewer + 40)
			.forEach((id) -> save(Person.man(id, at[0] + (id % 10) * 0.001, at[1])));
		long booster = viewer + 100;
		save(Person.man(booster, at[0], at[1]).desirability(100));
		java.time.Instant boostedAt = this.clock.instant();
		assertThat(post(booster, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value());
		String cell = "boosted_users:{" + io.kindling.swipe.geo.Geohash.encode(at[0], at[1], 4) + "}";
		assertThat(this.redis.opsForZSet().score(cell, String.valueOf(booster))).isNotNull();

		flushRedis();
		assertThat(this.redis.hasKey(cell)).isFalse();

		List<JsonNode> cards = page(viewer, 100);
		assertThat(cards.get(5).get("user_id").asLong()).isEqualTo(booster);
		assertThat(cards.get(5).get("boosted").asBoolean()).isTrue();
		assertThat(this.redis.opsForZSet().score(cell, String.valueOf(booster)))
			.isEqualTo((double) boostedAt.plus(Duration.ofMinutes(30)).toEpochMilli());

		// the boost and its cooldown are the table's, not Redis's
		flushRedis();
		assertThat(post(booster, "/api/boosts").status()).isEqualTo(HttpStatus.CONFLICT.value());
		this.clock.advance(Duration.ofMinutes(31));
		flushRedis();
		assertThat(post(booster, "/api/boosts").status()).isEqualTo(HttpStatus.TOO_MANY_REQUESTS.value());
		forgetDeck(viewer);
		assertThat(page(viewer, 100)).noneMatch((card) -> card.get("boosted").asBoolean());
	}

}
