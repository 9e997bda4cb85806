package io.kindling.swipe.swipe;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

import io.kindling.infra.http.Response;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.swipe.match.MatchRemoved;
import io.kindling.swipe.match.RemovalReason;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A block and the two likes of a pair, in every order they can arrive in, one after the
 * other and all at once on many threads: a blocked pair never ends with a live match.
 * When both likes came first the match is made and the block ends it (soft, reason
 * {@code BLOCKED}, with its event); otherwise no match is ever made. A like that comes
 * after the block is refused as a like of someone who does not exist. The block and the
 * match's TX 2 serialise on the pair's row of {@code pair_locks}.
 */
class BlockRaceIT extends SwipeTestBase {

	static final int RACING_PAIRS = 300;

	static final int PAIRS_IN_FLIGHT = 16;

	@Autowired
	JsonMapper json;

	enum Step {

		A_LIKES_B, B_LIKES_A, BLOCK

	}

	/** The two people of a pair; {@code blocker} is one of them. */
	record Pair(long a, long b, long blocker) {

		long blocked() {
			return (this.blocker == this.a) ? this.b : this.a;
		}

		long low() {
			return Math.min(this.a, this.b);
		}

		long high() {
			return Math.max(this.a, this.b);
		}

	}

	/** The answers a pair's requests got. */
	record Answers(List<Response> likes, Response block) {

	}

	@BeforeAll
	static void letTheTestUserSeeLockWaits() {
		// information_schema.INNODB_TRX needs PROCESS; the test server is thrown away
		// after
		RealServersExtension.mariaDb()
			.sql("GRANT PROCESS ON *.* TO '" + MariaDbServer.USER + "'@'127.0.0.1', '" + MariaDbServer.USER
					+ "'@'localhost';");
	}

	@Test
	void everyArrivalOrderOfABlockAndTwoLikesEndsWithoutALiveMatch() {
		List<List<Step>> orders = permutations(List.of(Step.values()));
		assertThat(orders).hasSize(6);
		Map<Pair, Answers> answers = new java.util.LinkedHashMap<>();
		Map<Pair, Boolean> bothLikesFirst = new java.util.HashMap<>();
		Map<Pair, List<Integer>> expectedStatuses = new java.util.HashMap<>();
		for (List<Step> order : orders) {
			for (boolean blockerIsA : List.of(true, false)) {
				for (int i = 0; i < 3; i++) {
					List<Long> users = newUsers(2);
					Pair pair = new Pair(users.get(0), users.get(1), blockerIsA ? users.get(0) : users.get(1));
					List<Response> likes = new ArrayList<>();
					List<Integer> statuses = new ArrayList<>();
					Response block = null;
					for (Step step : order) {
						if (step != Step.BLOCK) {
							statuses.add((block == null) ? 200 : 422);
						}
						switch (step) {
							case A_LIKES_B -> likes.add(this.api.swipe(pair.a(), key(), pair.b(), "LIKE"));
							case B_LIKES_A -> likes.add(this.api.swipe(pair.b(), key(), pair.a(), "LIKE"));
							case BLOCK -> block = this.api.block(pair.blocker(), pair.blocked());
						}
					}
					answers.put(pair, new Answers(likes, block));
					bothLikesFirst.put(pair, order.get(2) == Step.BLOCK);
					expectedStatuses.put(pair, statuses);
				}
			}
		}

		assertFinalState(answers);
		answers.forEach((pair, answer) -> {
			// a match exists exactly when both likes came before the block; it is ended
			assertThat(matchRows(pair)).as("pair %s", pair).isEqualTo(bothLikesFirst.get(pair) ? 1 : 0);
			assertThat(answer.likes().stream().map(Response::status).toList()).as("pair %s", pair)
				.isEqualTo(expectedStatuses.get(pair));
		});
	}

	@Test
	void aBlockRacingTwoLikesOnManyThreadsNeverLeavesALiveMatch() throws Exception {
		List<List<Step>> orders = permutations(List.of(Step.values()));
		List<Long> users = newUsers(2 * RACING_PAIRS);
		Map<Pair, List<Response>> likes = new ConcurrentHashMap<>();
		Map<Pair, Response> blocks = new ConcurrentHashMap<>();
		List<Pair> pairs = new ArrayList<>();
		Semaphore inFlight = new Semaphore(PAIRS_IN_FLIGHT);
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			List<Future<?>> futures = new ArrayList<>();
			for (int i = 0; i < RACING_PAIRS; i++) {
				long a = users.get(2 * i);
				long b = users.get(2 * i + 1);
				Pair pair = new Pair(a, b, (i % 2 == 0) ? a : b);
				pairs.add(pair);
				likes.put(pair, new java.util.concurrent.CopyOnWriteArrayList<>());
				// the three requests are started in each order in turn and then let go at
				// once, each on its own thread
				CountDownLatch go = new CountDownLatch(1);
				CountDownLatch done = new CountDownLatch(3);
				inFlight.acquire();
				for (Step step : orders.get(i % orders.size())) {
					futures.add(threads.submit(() -> {
						try {
							go.await();
							switch (step) {
								case A_LIKES_B -> likes.get(pair).add(this.api.swipe(a, key(), b, "LIKE"));
								case B_LIKES_A -> likes.get(pair).add(this.api.swipe(b, key(), a, "LIKE"));
								case BLOCK -> blocks.put(pair, this.api.block(pair.blocker(), pair.blocked()));
							}
							return null;
						}
						finally {
							done.countDown();
						}
					}));
				}
				threads.submit(() -> {
					done.await();
					inFlight.release();
					return null;
				});
				go.countDown();
			}
			for (Future<?> future : futures) {
				future.get();
			}
		}

		Map<Pair, Answers> answers = new java.util.LinkedHashMap<>();
		pairs.forEach((pair) -> answers.put(pair, new Answers(likes.get(pair), blocks.get(pair))));
		assertFinalState(answers);
		long matchedThenEnded = pairs.stream().filter((pair) -> matchRows(pair) == 1).count();
		System.out.println("block races: " + matchedThenEnded + " of " + RACING_PAIRS
				+ " pairs matched before the block ended it, the others never matched");
	}

	@Test
	void aBlockArrivingWhileTheMatchIsBeingWrittenWaitsForItAndThenEndsIt() throws Exception {
		List<Long> users = newUsers(2);
		Pair pair = new Pair(users.get(0), users.get(1), users.get(0));
		Response like = this.api.swipe(pair.a(), key(), pair.b(), "LIKE");
		assertThat(like.status()).isEqualTo(200);
		CountDownLatch reached = new CountDownLatch(1);
		CountDownLatch resume = new CountDownLatch(1);
		this.crashes.pauseBeforeMatch(pair.b(), reached, resume);
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<Response> likeBack = threads.submit(() -> this.api.swipe(pair.b(), key(), pair.a(), "LIKE"));
			assertThat(reached.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
			// TX 2 holds the pair's lock, has found no block and is about to write the
			// match: the block comes now
			Future<Response> block = threads.submit(() -> this.api.block(pair.blocker(), pair.blocked()));
			await().atMost(Duration.ofSeconds(30)).until(() -> block.isDone() || lockWaits() > 0);
			boolean blockWaited = !block.isDone();
			resume.countDown();

			assertThat(this.json.readTree(likeBack.get().body()).get("matched").asBoolean()).isTrue();
			assertThat(block.get().status()).isEqualTo(201);
			assertThat(blockWaited).as("the block waited for the match's transaction").isTrue();
			Map<Pair, Answers> answers = Map.of(pair, new Answers(List.of(like, likeBack.get()), block.get()));
			assertFinalState(answers);
			assertThat(matchRows(pair)).isOne();
		}
		finally {
			resume.countDown();
		}
	}

	/**
	 * Every request answered, a like either taken or refused as a like of nobody (then
	 * not stored); the block stands; no live match; a match that was made is ended by the
	 * block with its event and its domain event; no swipe left undecided; a like answered
	 * "matched" names that ended match.
	 */
	private void assertFinalState(Map<Pair, Answers> answers) {
		answers.forEach((pair, answer) -> {
			assertThat(answer.block().status()).as(answer.block().body()).isEqualTo(201);
			assertThat(answer.likes()).hasSize(2)
				.allSatisfy((like) -> assertThat(like.status()).as(like.body()).isIn(200, 422));
			long taken = answer.likes().stream().filter((like) -> like.status() == 200).count();
			assertThat(
					count("SELECT COUNT(*) FROM swipe_history WHERE user_id IN (" + pair.a() + ", " + pair.b() + ")"))
				.isEqualTo(taken);
			assertThat(count("SELECT COUNT(*) FROM user_blocks WHERE user_id = " + pair.blocker()
					+ " AND blocked_user_id = " + pair.blocked()))
				.isOne();
			assertThat(count("SELECT COUNT(*) FROM matches WHERE user_id_1 = " + pair.low() + " AND user_id_2 = "
					+ pair.high() + " AND removed_at IS NULL"))
				.as("pair %s has a live match", pair)
				.isZero();
			assertThat(count("SELECT COUNT(*) FROM swipe_history WHERE response_status IS NULL AND user_id IN ("
					+ pair.a() + ", " + pair.b() + ")"))
				.isZero();
			List<Map<String, Object>> matches = this.jdbc.sql(
					"SELECT match_id, removed_by, removal_reason FROM matches WHERE user_id_1 = :low AND user_id_2 = :high")
				.param("low", pair.low())
				.param("high", pair.high())
				.query()
				.listOfRows();
			for (Response like : answer.likes()) {
				JsonNode body = this.json.readTree(like.body());
				if (like.status() == 422) {
					assertThat(body.get("type").asString()).isEqualTo("https://kindling.io/problems/unknown-target");
				}
				else if (body.get("matched").asBoolean()) {
					assertThat(matches).singleElement()
						.satisfies((match) -> assertThat(((Number) match.get("match_id")).longValue())
							.isEqualTo(body.get("match_id").asLong()));
				}
			}
			for (Map<String, Object> match : matches) {
				long matchId = ((Number) match.get("match_id")).longValue();
				assertThat(((Number) match.get("removed_by")).longValue()).isEqualTo(pair.blocker());
				assertThat(match.get("removal_reason")).isEqualTo("BLOCKED");
				List<JsonNode> removed = this.jdbc
					.sql("SELECT payload FROM match_outbox WHERE event_key = :key AND event_type = 'MATCH_REMOVED'")
					.param("key", pair.low() + ":" + pair.high())
					.query(String.class)
					.list()
					.stream()
					.map(this.json::readTree)
					.toList();
				assertThat(removed).singleElement().satisfies((event) -> {
					assertThat(event.get("reason").asString()).isEqualTo("BLOCKED");
					assertThat(event.get("removed_by").asLong()).isEqualTo(pair.blocker());
					assertThat(event.get("match_id").asLong()).isEqualTo(matchId);
				});
				assertThat(count("SELECT COUNT(*) FROM match_outbox WHERE event_key = '" + pair.low() + ":"
						+ pair.high() + "' AND event_type = 'MATCH_CREATED'"))
					.isOne();
				List<MatchRemoved> published = this.removedMatches.of(matchId);
				assertThat(published).singleElement().satisfies((event) -> {
					assertThat(event.reason()).isEqualTo(RemovalReason.BLOCKED);
					assertThat(event.removedBy()).isEqualTo(pair.blocker());
				});
			}
		});
	}

	private long matchRows(Pair pair) {
		return count(
				"SELECT COUNT(*) FROM matches WHERE user_id_1 = " + pair.low() + " AND user_id_2 = " + pair.high());
	}

	/**
	 * On a connection of its own: a grant reaches only connections opened after it, and
	 * the pool may hold older ones (the context is shared with earlier test classes).
	 */
	private long lockWaits() throws SQLException {
		try (Connection connection = DriverManager.getConnection(
				RealServersExtension.mariaDb().jdbcUrl("kindling_swipe"), MariaDbServer.USER, MariaDbServer.PASSWORD);
				Statement statement = connection.createStatement();
				ResultSet waits = statement
					.executeQuery("SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")) {
			waits.next();
			return waits.getLong(1);
		}
	}

	private long count(String sql) {
		return this.jdbc.sql(sql).query(Long.class).single();
	}

	private static <T> List<List<T>> permutations(List<T> items) {
		if (items.size() <= 1) {
			return List.of(items);
		}
		List<List<T>> all = new ArrayList<>();
		for (T first : items) {
			List<T> rest = new ArrayList<>(items);
			rest.remove(first);
			for (List<T> tail : permutations(rest)) {
				List<T> order = new ArrayList<>();
				order.add(first);
				order.addAll(tail);
				all.add(order);
			}
		}
		return all;
	}

}
