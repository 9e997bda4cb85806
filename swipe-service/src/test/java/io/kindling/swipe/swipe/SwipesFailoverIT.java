package io.kindling.swipe.swipe;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.servers.ProcessSignals;
import io.kindling.infra.servers.RedisSentinels;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.RedisMode;
import io.kindling.swipe.TestApi;
import io.kindling.swipe.TestTokens;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Swipes through a Redis failover that loses acknowledged writes: a primary with a
 * replica and three Sentinels, chosen by {@code spring.data.redis.sentinel.*} alone, and
 * a second instance of the service. The replica is made to miss the writes of likes,
 * matches and a rewind, the primary is killed and the replica promoted: MySQL still makes
 * exactly one match per mutual pair, none for one-sided likes, and finishes every swipe.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe", redis = RedisMode.SENTINEL)
class SwipesFailoverIT extends SwipeTestBase {

	@RegisterExtension
	static final SecondInstance other = new SecondInstance();

	@Autowired
	JsonMapper json;

	@Autowired
	MeterRegistry meters;

	@AfterEach
	void heal() {
		RealServersExtension.redisSentinels().heal(Duration.ofSeconds(60));
	}

	@Test
	void likesTheReplicaNeverSawNeitherLoseNorInventAMatch() throws Exception {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		// a like the replica never gets: the like back after the failover still matches
		long lostLiker = newUser();
		long lostTarget = newUser();
		// a match made while the replica misses writes: after the failover it is
		// replayed
		long earlyLiker = newUser();
		long lateLiker = newUser();
		// a rewind the replica never gets: the promoted Redis still remembers the like
		long rewinder = newUser();
		long rewound = newUser();
		// a one-sided like the replica never gets
		long oneSided = newUser();
		long notInterested = newUser();
		// a like answered while there is no primary at all
		long waiting = newUser();
		long answering = newUser();
		List<Long> everyone = List.of(lostLiker, lostTarget, earlyLiker, lateLiker, rewinder, rewound, oneSided,
				notInterested, waiting, answering);

		String earlyKey = key();
		Response early = like(this.api, earlyLiker, earlyKey, lateLiker);
		assertThat(early.json().get("matched").asBoolean()).isFalse();
		assertThat(like(this.api, rewinder, key(), rewound).json().get("matched").asBoolean()).isFalse();
		assertThat(like(other.api, waiting, key(), answering).json().get("matched").asBoolean()).isFalse();
		RedisServer primary = sentinels.primary();
		RedisServer replica = sentinels.replica();
		// the first likes are on the replica
		primary.awaitReplicated(Duration.ofSeconds(5));

		sentinels.missWrites();
		String lostKey = key();
		assertThat(like(other.api, lostLiker, lostKey, lostTarget).json().get("matched").asBoolean()).isFalse();
		String lateKey = key();
		Response match = like(this.api, lateLiker, lateKey, earlyLiker);
		assertThat(match.json().get("matched").asBoolean()).isTrue();
		assertThat(this.api.delete("/api/swipes/last", rewinder).status()).isEqualTo(204);
		String oneSidedKey = key();
		assertThat(like(other.api, oneSided, oneSidedKey, notInterested).json().get("matched").asBoolean()).isFalse();
		try (Jedis toPrimary = new Jedis("127.0.0.1", primary.port())) {
			// the primary acknowledged them all
			assertThat(toPrimary.hexists(pair(lostLiker, lostTarget), "request:" + lostKey)).isTrue();
			assertThat(toPrimary.hexists(pair(lateLiker, earlyLiker), "request:" + lateKey)).isTrue();
			assertThat(toPrimary.hexists(pair(rewinder, rewound), field(rewinder, rewound))).isFalse();
			assertThat(toPrimary.hexists(pair(oneSided, notInterested), "request:" + oneSidedKey)).isTrue();
		}

		primary.kill();
		ProcessSignals.resume(replica);
		// no primary at all: MySQL decides
		double fallbacks = fallbacks();
		Response answered = like(this.api, answering, key(), waiting);
		assertThat(answered.json().get("matched").asBoolean()).isTrue();
		assertThat(fallbacks() - fallbacks).as("decisions MySQL made without Redis").isPositive();
		sentinels.awaitPromoted(replica, Duration.ofSeconds(30));

		// the loss happened: the promoted primary has the writes from before the freeze
		// and none from after it
		try (Jedis promoted = new Jedis("127.0.0.1", replica.port())) {
			assertThat(promoted.hexists(pair(lostLiker, lostTarget), field(lostLiker, lostTarget))).isFalse();
			assertThat(promoted.hexists(pair(lateLiker, earlyLiker), "request:" + earlyKey)).isTrue();
			assertThat(promoted.hexists(pair(lateLiker, earlyLiker), "request:" + lateKey)).isFalse();
			assertThat(promoted.hexists(pair(rewinder, rewound), field(rewinder, rewound)))
				.as("the rewound like, still in Redis")
				.isTrue();
			assertThat(promoted.exists(pair(oneSided, notInterested))).isFalse();
		}

		// this instance writes to the promoted primary again (its pool heard the switch)
		String probe = "probe:{" + rewinder + "}";
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			try (Jedis promoted = new Jedis("127.0.0.1", replica.port())) {
				this.redis.opsForValue().set(probe, "1");
				return promoted.exists(probe);
			}
			catch (DataAccessException ex) {
				return false;
			}
		});

		// the like back finds no like in Redis; MySQL has it: a match, pushed to a stream
		// open on the other instance (its subscription was made again after the failover)
		EventStream lostLikers = other.api.http()
			.events(Request.get("/api/events").bearer(TestTokens.forUser(lostLiker)))
			.awaitFirstLine(":subscribed");
		lostLikers.nextEvent("position");
		Response likeBack = like(this.api, lostTarget, key(), lostLiker);
		assertThat(likeBack.json().get("matched").asBoolean()).isTrue();
		ServerSentEvent pushed = lostLikers.nextEvent();
		lostLikers.close();
		assertThat(pushed.name()).isEqualTo("match_created");
		assertThat(this.json.readTree(pushed.data()).get("match_id").asLong())
			.isEqualTo(likeBack.json().get("match_id").asLong());
		// the match made during the freeze is replayed byte for byte, on either instance
		Response replayed = like(other.api, lateLiker, lateKey, earlyLiker);
		assertThat(replayed.body()).isEqualTo(match.body());
		assertThat(replayed.header("Idempotent-Replayed")).hasValue("true");
		assertThat(like(this.api, earlyLiker, earlyKey, lateLiker).body()).isEqualTo(early.body());
		// Redis says mutual from the rewound like it still holds; MySQL knows better
		assertThat(like(this.api, rewound, key(), rewinder).json().get("matched").asBoolean()).isFalse();
		try (Jedis promoted = new Jedis("127.0.0.1", replica.port())) {
			assertThat(promoted.hkeys(pair(rewinder, rewound))).contains("right_a", "right_b");
		}
		Response passed = retried(() -> this.api.swipe(notInterested, key(), oneSided, "PASS"));
		assertThat(passed.json().get("matched").asBoolean()).isFalse();

		String ids = everyone.stream().map(String::valueOf).reduce((x, y) -> x + "," + y).orElseThrow();
		Set<String> matchedPairs = new HashSet<>(
				this.jdbc.sql("SELECT CONCAT(user_id_1, ':', user_id_2) FROM matches WHERE user_id_1 IN (" + ids + ")")
					.query(String.class)
					.list());
		assertThat(matchedPairs).containsExactlyInAnyOrder(pairOf(lostLiker, lostTarget), pairOf(earlyLiker, lateLiker),
				pairOf(waiting, answering));
		assertThat(this.jdbc
			.sql("SELECT event_key FROM match_outbox WHERE event_type = 'MATCH_CREATED' AND event_key IN (:keys)")
			.param("keys", matchedPairs)
			.query(String.class)
			.list()).containsExactlyInAnyOrderElementsOf(matchedPairs);
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM swipe_history WHERE response_status IS NULL AND user_id IN (" + ids + ")")
			.query(Long.class)
			.single()).as("undecided swipes").isZero();
	}

	@Test
	void fiveHundredRacingPairsSentTwiceThroughAFailoverMatchExactlyOnce() throws Exception {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		RacingPairs race = new RacingPairs(newUsers(2 * (RacingPairs.PAIRS + RacingPairs.ONE_SIDED)));
		Map<String, RacingPairs.Swipe> byKey = new HashMap<>();
		race.swipes.forEach((swipe) -> byKey.put(swipe.key(), swipe));
		RedisServer primary = sentinels.primary();
		RedisServer replica = sentinels.replica();
		AtomicInteger phase = new AtomicInteger(BEFORE);
		Map<String, AtomicInteger> sentWhileFrozen = new ConcurrentHashMap<>();
		Set<String> acknowledgedWhileFrozen = new HashSet<>();
		AtomicInteger retries = new AtomicInteger();
		double fallbacksBefore = fallbacks();

		race.run((swipe, copy) -> {
			if (phase.get() == FROZEN) {
				sentWhileFrozen.computeIfAbsent(swipe.key(), (k) -> new AtomicInteger()).incrementAndGet();
			}
			TestApi instance = (copy == 0) ? this.api : other.api;
			Response response = instance.swipe(swipe.userId(), swipe.key(), swipe.targetUserId(), "LIKE");
			for (int attempt = 0; response.status() == 503 && attempt < 300; attempt++) {
				retries.incrementAndGet();
				Thread.sleep(100);
				response = instance.swipe(swipe.userId(), swipe.key(), swipe.targetUserId(), "LIKE");
			}
			return response;
		}, (done, total) -> {
			if (phase.get() == BEFORE && done >= total / 4) {
				sentinels.missWrites();
				phase.set(FROZEN);
			}
			else if (phase.get() == FROZEN && done >= 2 * total / 5) {
				phase.set(KILLED);
				// likes made and answered (both copies) while the replica heard nothing,
				// which the primary has
				try (Jedis toPrimary = new Jedis("127.0.0.1", primary.port())) {
					sentWhileFrozen.forEach((key, copies) -> {
						List<String> bodies = race.bodiesByKey.get(key);
						RacingPairs.Swipe swipe = byKey.get(key);
						if (copies.get() == 2 && bodies != null && bodies.size() == 2
								&& toPrimary.hexists(pair(swipe.userId(), swipe.targetUserId()), "request:" + key)) {
							acknowledgedWhileFrozen.add(key);
						}
					});
				}
				primary.kill();
				ProcessSignals.resume(replica);
			}
			else if (phase.get() == KILLED && done >= 11 * total / 20) {
				sentinels.awaitPromoted(replica, Duration.ofSeconds(30));
				phase.set(PROMOTED);
			}
		});
		assertThat(phase.get()).isEqualTo(PROMOTED);

		race.assertFinalState(this.jdbc, this.json);
		// the loss happened: what the primary acknowledged during the freeze is not on
		// the promoted replica
		assertThat(acknowledgedWhileFrozen).as("likes acknowledged while the replica was frozen").isNotEmpty();
		long lost;
		try (Jedis promoted = new Jedis("127.0.0.1", replica.port())) {
			lost = acknowledgedWhileFrozen.stream().filter((key) -> {
				RacingPairs.Swipe swipe = byKey.get(key);
				return !promoted.hexists(pair(swipe.userId(), swipe.targetUserId()), "request:" + key);
			}).count();
		}
		assertThat(lost).as("of them lost in the failover").isEqualTo(acknowledgedWhileFrozen.size());
		double fallbacks = fallbacks() - fallbacksBefore;
		assertThat(fallbacks).as("decisions MySQL made while Redis had no primary").isPositive();
		System.out.printf(
				"failover crowd: %d likes acknowledged while the replica was frozen, %d of them lost; %.0f decided by MySQL without Redis; %d retries of a 503%n",
				acknowledgedWhileFrozen.size(), lost, fallbacks, retries.get());
	}

	private static final int BEFORE = 0;

	private static final int FROZEN = 1;

	private static final int KILLED = 2;

	private static final int PROMOTED = 3;

	/**
	 * A like that must be answered: retried, with its key, while Redis is failing over.
	 */
	private static Response like(TestApi instance, long userId, String key, long targetUserId)
			throws InterruptedException {
		Response response = retried(() -> instance.swipe(userId, key, targetUserId, "LIKE"));
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		return response;
	}

	private static Response retried(Supplier<Response> request) throws InterruptedException {
		Response response = request.get();
		for (int attempt = 0; response.status() == 503 && attempt < 100; attempt++) {
			Thread.sleep(100);
			response = request.get();
		}
		return response;
	}

	private double fallbacks() {
		return this.meters.find("kindling.swipe.redis.fallbacks")
			.counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum() + other.counter("kindling.swipe.redis.fallbacks");
	}

	private static String pair(long userId, long targetUserId) {
		return MutualLikeScript.pairKey(userId, targetUserId);
	}

	private static String field(long userId, long targetUserId) {
		return MutualLikeScript.likeField(userId, targetUserId);
	}

	private static String pairOf(long a, long b) {
		return Math.min(a, b) + ":" + Math.max(a, b);
	}

}
