package io.kindling.matching;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.kindling.infra.http.Response;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No rematch, through the HTTP API on real Redis and MariaDB: two sessions that shared a
 * room are not put together again within the cooldown while someone else waiting could
 * form the room instead; with nobody else, once the oldest waited {@code rematch-after}.
 */
class RematchIT extends RoomFeatureTest {

	@Test
	void twoWhoSharedARoomWaitSideBySideAndTheNextArrivalTakesTheOlder() {
		String a = this.api.session();
		String b = this.api.session();
		RoomFeatures.shareARoom(this.api, a, b, 1);
		assertThat(this.api.join(a, 1, 2).status()).isEqualTo(202);
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.api.join(b, 1, 2).status()).as("no rematch while the queue may fill").isEqualTo(202);
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.api.status(a).field("status")).isEqualTo("waiting");

		String c = this.api.session();
		Response matched = this.api.join(c, 1, 2);
		assertThat(matched.status()).isEqualTo(200);
		assertThat(this.api.status(a).field("room_id")).isEqualTo(matched.field("room_id"));
		assertThat(this.api.status(b).field("status")).isEqualTo("waiting");
		// their partner lists went out of the queue's slot with them, or stayed with b
		assertThat(this.redis.opsForHash().keys(RedisKeys.entryPartners(1, 2))).hasSize(1);
	}

	@Test
	void withNobodyElseWaitingTheyMeetAgainOnceTheOlderWaitedRematchAfter() {
		String a = this.api.session();
		String b = this.api.session();
		RoomFeatures.shareARoom(this.api, a, b, 2);
		this.api.join(a, 2, 2);
		this.clock.advance(Duration.ofSeconds(1));
		this.api.join(b, 2, 2);
		this.clock.advance(Duration.ofSeconds(58));
		assertThat(this.api.status(b).field("status")).isEqualTo("waiting");
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.api.status(b).field("status")).isEqualTo("matched");
		assertThat(this.api.status(a).field("room_id")).isEqualTo(this.api.status(b).field("room_id"));
	}

	@Test
	void afterTheCooldownTheyAreMatchedAtOnce() {
		String a = this.api.session();
		String b = this.api.session();
		RoomFeatures.shareARoom(this.api, a, b, 3);
		this.clock.advance(Duration.ofMinutes(30));
		this.api.join(a, 3, 2);
		assertThat(this.api.join(b, 3, 2).status()).isEqualTo(200);
	}

	@Test
	void recentPartnersAreKeptApartInAnotherTopicToo() {
		String a = this.api.session();
		String b = this.api.session();
		RoomFeatures.shareARoom(this.api, a, b, 4);
		assertThat(this.api.join(a, 42, 2).status()).isEqualTo(202);
		assertThat(this.api.join(b, 42, 2).status()).isEqualTo(202);
		assertThat(this.api.status(a).field("status")).isEqualTo("waiting");
	}

	@Test
	void aRoomOfThreeSkipsTheOlderOnesRecentPartner() {
		String a = this.api.session();
		String b = this.api.session();
		RoomFeatures.shareARoom(this.api, a, b, 1);
		String d = this.api.session();
		String e = this.api.session();
		// a second apart: entries of the same millisecond are taken in the order of their
		// members
		assertThat(this.api.join(a, 1, 3).status()).isEqualTo(202);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.api.join(b, 1, 3).status()).isEqualTo(202);
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.api.join(d, 1, 3).status()).as("a, b and d would put a and b together").isEqualTo(202);
		this.clock.advance(Duration.ofSeconds(1));
		Response matched = this.api.join(e, 1, 3);
		assertThat(matched.status()).isEqualTo(200);
		assertThat(this.api.status(a).field("room_id")).isEqualTo(matched.field("room_id"));
		assertThat(this.api.status(d).field("room_id")).isEqualTo(matched.field("room_id"));
		assertThat(this.api.status(b).field("status")).isEqualTo("waiting");
	}

	/**
	 * Forty pairs that have just shared rooms all come back at once, each pair's two
	 * joins one right after the other (which, oldest first, would pair most of them
	 * again): no second room puts a pair together, and at most one pair is left, waiting
	 * side by side, until rematch-after lets them meet.
	 */
	@Test
	void pairsComingBackTogetherUnderConcurrencyAreNeverRematchedWhileOthersWait() throws Exception {
		int pairs = 40;
		List<String[]> sessions = new ArrayList<>();
		Set<Set<String>> shared = new HashSet<>();
		for (int i = 0; i < pairs; i++) {
			String[] pair = { this.api.session(), this.api.session() };
			RoomFeatures.shareARoom(this.api, pair[0], pair[1], 4);
			sessions.add(pair);
			shared.add(Set.of(Session.keyOf(pair[0]), Session.keyOf(pair[1])));
		}
		long before = RoomFeatures.lastConversationId(this.jdbc);
		// two pairs at a time, their four joins at once: oldest first alone would put
		// each pair back together about one time in three
		try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
			for (int group = 0; group < pairs; group += 2) {
				List<Future<?>> done = new ArrayList<>();
				for (String[] pair : sessions.subList(group, group + 2)) {
					for (String token : pair) {
						done.add(threads.submit(() -> assertThat(this.api.join(token, 4, 2).status()).isIn(200, 202)));
					}
				}
				for (Future<?> each : done) {
					each.get();
				}
			}
		}
		// the sweeper forms what the joins left: everyone in a room but, at most, one
		// pair of partners
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			List<String> waiting = waiting(sessions);
			return waiting.isEmpty() || (waiting.size() == 2 && shared.contains(Set.copyOf(waiting)));
		});
		List<String> waiting = waiting(sessions);
		List<List<String>> rooms = RoomFeatures.conversations(this.jdbc, before);
		assertThat(rooms).noneMatch((room) -> shared.contains(Set.copyOf(room)));
		assertThat(rooms).hasSize(pairs - waiting.size() / 2);
		if (waiting.size() == 2) {
			this.clock.advance(Duration.ofSeconds(60));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> RoomFeatures.conversations(this.jdbc, before).size() == pairs);
			assertThat(RoomFeatures.conversations(this.jdbc, before))
				.filteredOn((room) -> shared.contains(Set.copyOf(room)))
				.containsExactly(waiting.stream().sorted().toList());
		}
	}

	private List<String> waiting(List<String[]> sessions) {
		List<String> waiting = new ArrayList<>();
		for (String[] pair : sessions) {
			for (String token : pair) {
				if (this.api.status(token).field("status").equals("waiting")) {
					waiting.add(Session.keyOf(token));
				}
			}
		}
		return waiting;
	}

}
