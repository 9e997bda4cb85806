package io.kindling.swipe.likes;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

import io.kindling.infra.http.Response;
import io.kindling.outbox.SqlTime;
import io.kindling.swipe.swipe.SwipeTestBase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /api/likes} on real servers: who liked or super-liked me and waits for my
 * answer, super likers first and then newest first, paged without gaps or repeats; never
 * someone I swiped or blocked, or who blocked me, also when all of it happens at once.
 */
class LikesYouIT extends SwipeTestBase {

	@Autowired
	JsonMapper json;

	@Test
	void superLikersComeFirstThenTheNewestAndPagesHaveNoGapsOrRepeats() {
		long me = newUser();
		List<Long> likers = newUsers(7);
		List<String> actions = List.of("LIKE", "SUPER_LIKE", "LIKE", "LIKE", "SUPER_LIKE", "LIKE", "LIKE");
		for (int i = 0; i < likers.size(); i++) {
			this.clock.advance(Duration.ofSeconds(1));
			assertThat(this.api.swipe(likers.get(i), key(), me, actions.get(i)).status()).isEqualTo(200);
		}
		long passer = newUser();
		this.api.swipe(passer, key(), me, "PASS");

		List<JsonNode> pages = pages(me, 3);

		assertThat(pages).hasSize(3);
		List<JsonNode> likes = likes(pages);
		assertThat(likes.stream().map((like) -> like.get("user_id").asLong()).toList()).containsExactly(likers.get(4),
				likers.get(1), likers.get(6), likers.get(5), likers.get(3), likers.get(2), likers.get(0));
		assertThat(likes.stream().map((like) -> like.get("super_like").asBoolean()).toList()).containsExactly(true,
				true, false, false, false, false, false);
		JsonNode first = likes.get(0);
		assertThat(Instant.parse(first.get("liked_at").asString())).isEqualTo(
				this.jdbc.sql("SELECT created_at FROM swipe_history WHERE user_id = :liker AND active_target = :me")
					.param("liker", likers.get(4))
					.param("me", me)
					.query((rs, row) -> rs.getTimestamp("created_at").toInstant())
					.single());
		assertThat(first.size()).as("user_id, super_like, liked_at and nothing else").isEqualTo(3);
		assertThat(pages.get(2).get("next_cursor").isNull()).isTrue();
	}

	@Test
	void someoneISwipedOrBlockedOrWhoBlockedMeOrTookTheirLikeBackIsNotListed() {
		long me = newUser();
		List<Long> likers = newUsers(7);
		likers.forEach((liker) -> this.api.swipe(liker, key(), me, "LIKE"));
		long likedBack = likers.get(0);
		long passed = likers.get(1);
		long blocked = likers.get(2);
		long blocker = likers.get(3);
		long rewound = likers.get(4);

		assertThat(this.json.readTree(this.api.swipe(me, key(), likedBack, "LIKE").body()).get("matched").asBoolean())
			.isTrue();
		this.api.swipe(me, key(), passed, "PASS");
		this.api.block(me, blocked);
		this.api.block(blocker, me);
		assertThat(this.api.delete("/api/swipes/last", rewound).status()).isEqualTo(204);

		assertThat(likers(me)).containsExactlyInAnyOrder(likers.get(5), likers.get(6));

		// my rewound pass and a lifted block bring them back
		assertThat(this.api.delete("/api/swipes/last", me).status()).isEqualTo(204);
		this.api.delete("/api/blocks/" + blocked, me);
		assertThat(likers(me)).containsExactlyInAnyOrder(passed, blocked, likers.get(5), likers.get(6));
	}

	@Test
	void likesYouNeverListsSomeoneISwipedOrBlockedWhenItAllHappensAtOnce() throws Exception {
		long me = newUser();
		List<Long> likers = newUsers(240);
		List<Long> notLiking = newUsers(20);
		// half I answer (a few likes, the daily limit here being 5, and passes), an
		// eighth
		// I block, an eighth block me
		Set<Long> answered = new HashSet<>(likers.subList(0, 120));
		Set<Long> blockedByMe = new HashSet<>(likers.subList(120, 150));
		Set<Long> blockingMe = new HashSet<>(likers.subList(150, 180));
		List<Runnable> requests = new ArrayList<>();
		for (int i = 0; i < likers.size(); i++) {
			long liker = likers.get(i);
			String action = (i % 5 == 0) ? "SUPER_LIKE" : "LIKE";
			boolean blockedEitherWay = blockedByMe.contains(liker) || blockingMe.contains(liker);
			// a like after a block either way is refused as a like of nobody
			requests.add(() -> okOrHidden(this.api.swipe(liker, key(), me, action), blockedEitherWay));
			if (answered.contains(liker)) {
				String answer = (i < 4) ? "LIKE" : "PASS";
				requests.add(() -> ok(this.api.swipe(me, key(), liker, answer)));
			}
			if (blockedByMe.contains(liker)) {
				requests.add(() -> ok(this.api.block(me, liker)));
			}
			if (blockingMe.contains(liker)) {
				requests.add(() -> ok(this.api.block(liker, me)));
			}
		}
		// and some I swipe who never like me
		notLiking.forEach((other) -> requests.add(() -> ok(this.api.swipe(me, key(), other, "PASS"))));
		Collections.shuffle(requests);
		Semaphore inFlight = new Semaphore(48);
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			List<Future<?>> futures = new ArrayList<>();
			for (Runnable request : requests) {
				inFlight.acquire();
				futures.add(threads.submit(() -> {
					try {
						request.run();
					}
					finally {
						inFlight.release();
					}
				}));
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}

		List<JsonNode> likes = likes(pages(me, 7));
		List<Long> listed = likes.stream().map((like) -> like.get("user_id").asLong()).toList();
		assertThat(listed).doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(likers.subList(180, 240))
			.doesNotContainAnyElementsOf(answered)
			.doesNotContainAnyElementsOf(blockedByMe)
			.doesNotContainAnyElementsOf(blockingMe);
		// every super like before every like, each tier newest first, as the table has
		// them
		Map<Long, Instant> likedAt = new java.util.HashMap<>();
		this.jdbc.sql("SELECT user_id, created_at FROM swipe_history WHERE active_target = :me")
			.param("me", me)
			.query((rs) -> {
				likedAt.put(rs.getLong("user_id"), rs.getTimestamp("created_at").toInstant());
			});
		for (int i = 1; i < likes.size(); i++) {
			JsonNode before = likes.get(i - 1);
			JsonNode after = likes.get(i);
			boolean superBefore = before.get("super_like").asBoolean();
			boolean superAfter = after.get("super_like").asBoolean();
			assertThat(!superAfter || superBefore).as("a super like after a like at %d", i).isTrue();
			if (superBefore == superAfter) {
				assertThat(likedAt.get(before.get("user_id").asLong()))
					.isAfterOrEqualTo(likedAt.get(after.get("user_id").asLong()));
			}
			assertThat(Instant.parse(after.get("liked_at").asString()))
				.isEqualTo(likedAt.get(after.get("user_id").asLong()));
		}
	}

	@Test
	void aBadCursorOrLimitIsAProblemDetail() {
		long me = newUser();
		for (String query : List.of("cursor=abc", "cursor=Zm9v", "cursor=OTo5Ojk", "cursor=LTE6OTo5")) {
			Response response = this.api.get("/api/likes?" + query, me);
			assertThat(response.status()).as(query).isEqualTo(400);
			assertThat(this.json.readTree(response.body()).get("type").asString())
				.isEqualTo("https://kindling.io/problems/bad-cursor");
		}
		assertThat(this.api.get("/api/likes?limit=0", me).status()).isEqualTo(400);
		assertThat(this.api.get("/api/likes?limit=101", me).status()).isEqualTo(400);
		assertThat(this.json.readTree(this.api.get("/api/likes", me).body()).get("likes").size()).isZero();
	}

	@Test
	void eachTierIsOneRangeOfTheLikedMeIndex() {
		long me = newUser();
		List<Long> likers = newUsers(50);
		likers.forEach((liker) -> this.api.swipe(liker, key(), me, "LIKE"));
		for (String action : List.of("SUPER_LIKE", "LIKE")) {
			List<Map<String, Object>> plan = this.jdbc.sql("EXPLAIN " + LikesYou.TIER)
				.param("userId", me)
				.param("action", action)
				.param("at", SqlTime.epochSeconds(io.kindling.support.paging.Cursor.FIRST.at()))
				.param("after", Long.MAX_VALUE)
				.param("now", SqlTime.epochSeconds(Instant.now()))
				.param("fetch", 21)
				.query()
				.listOfRows();
			Map<String, Object> liked = plan.stream()
				.filter((row) -> "liked".equals(row.get("table")))
				.findFirst()
				.orElseThrow();
			assertThat(liked.get("key")).as(plan.toString()).isEqualTo("idx_swipe_liked_me");
			assertThat(String.valueOf(liked.get("Extra"))).as(plan.toString()).doesNotContain("filesort");
		}
	}

	private List<Long> likers(long me) {
		return likes(pages(me, 100)).stream().map((like) -> like.get("user_id").asLong()).toList();
	}

	/** Every page, following next_cursor. */
	private List<JsonNode> pages(long me, int limit) {
		List<JsonNode> pages = new ArrayList<>();
		String cursor = null;
		do {
			Response response = this.api
				.get("/api/likes?limit=" + limit + ((cursor != null) ? "&cursor=" + cursor : ""), me);
			assertThat(response.status()).as(response.body()).isEqualTo(200);
			JsonNode page = this.json.readTree(response.body());
			pages.add(page);
			cursor = page.get("next_cursor").isNull() ? null : page.get("next_cursor").asString();
		}
		while (cursor != null);
		return pages;
	}

	private static List<JsonNode> likes(List<JsonNode> pages) {
		List<JsonNode> likes = new ArrayList<>();
		pages.forEach((page) -> page.get("likes").forEach(likes::add));
		return likes;
	}

	private static void ok(Response response) {
		assertThat(response.status()).as(response.body()).isIn(200, 201);
	}

	private static void okOrHidden(Response response, boolean mayBeHidden) {
		if (mayBeHidden && response.status() == 422) {
			assertThat(response.json().get("type").asString()).isEqualTo("https://kindling.io/problems/unknown-target");
			return;
		}
		ok(response);
	}

}
