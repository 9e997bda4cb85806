package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Response;
import io.kindling.infra.servers.RedisCluster;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.RedisMode;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.RedisKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rooms on a real Redis Cluster (three primaries, three replicas), chosen by
 * {@code spring.data.redis.cluster.nodes} alone, with two instances of the service: every
 * script stays in one slot, pushes cross instances, a crowd never shares a room, and the
 * scripts load again on a promoted replica.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching", redis = RedisMode.CLUSTER)
class RoomsOnClusterIT {

	static TwoInstances instances;

	@BeforeAll
	static void start() {
		instances = new TwoInstances(new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS)));
	}

	@AfterAll
	static void stop() throws Exception {
		if (instances != null) {
			instances.close();
		}
	}

	@BeforeEach
	void freshStores() {
		instances.freshStores();
	}

	@Test
	void aQueueAndItsPeoplesClaimsLiveOnDifferentPrimariesAndRoomsStillForm() {
		RedisCluster cluster = RealServersExtension.redisCluster();
		Api a = instances.a;
		Api b = instances.b;
		String x = a.session();
		String y = b.session();
		// three random tokens all hash to the queue's primary one time in 27: the third
		// is drawn until the room's keys really span primaries
		String z = a.session();
		for (int draw = 0; draw < 50 && primaries(cluster, RedisKeys.queue(1, 3), RedisKeys.claim(x),
				RedisKeys.claim(y), RedisKeys.claim(z)) == 1; draw++) {
			z = a.session();
		}
		assertThat(a.join(x, 1, 3).status()).isEqualTo(202);
		assertThat(b.join(y, 1, 3).status()).isEqualTo(202);
		assertThat(
				primaries(cluster, RedisKeys.queue(1, 3), RedisKeys.claim(x), RedisKeys.claim(y), RedisKeys.claim(z)))
			.as("primaries holding the keys of one room")
			.isGreaterThan(1);
		assertThat(a.join(x, 2, 2).status()).isEqualTo(409);

		Response matched = b.join(z, 1, 3);
		assertThat(matched.status()).as(matched.body()).isEqualTo(200);
		assertThat(a.status(x).body()).isEqualTo(matched.body());
		assertThat(b.status(y).body()).isEqualTo(matched.body());
		assertThat(a.leave(y).status()).isEqualTo(204);
		assertThat(a.status(y).field("status")).isEqualTo("idle");
		assertThat(b.status(x).field("status")).isEqualTo("matched");

		// the sweeper's fallback and timeout across slots, with nobody polling
		String p = a.session();
		String q = b.session();
		a.join(p, 2, 3);
		b.join(q, 2, 3);
		instances.clock.advance(Duration.ofSeconds(60));
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> instances.redis.opsForHash().get(RedisKeys.claim(p), "conversation_id") != null);
		assertThat(b.status(q).field("room_type")).isEqualTo("2");
	}

	/**
	 * Recent partners travel from the tokens' slots to the queue's with each join; a ban
	 * made on one instance takes its session out of its queue at once and bites on the
	 * other within the cache's TTL, as a new topic shows there; both instances see the
	 * same queue stats.
	 */
	@Test
	void noRematchBansTopicsAndQueueStatsAcrossSlotsAndInstances() {
		Api a = instances.a;
		Api b = instances.b;
		String x = a.session();
		String y = b.session();
		RoomFeatures.shareARoom(a, x, y, 4);
		assertThat(a.join(x, 4, 2).status()).isEqualTo(202);
		// x waits longer than y: at the same millisecond their random tokens would order
		// them, and half the time z would pair with y instead
		instances.clock.advance(Duration.ofMillis(1));
		assertThat(b.join(y, 4, 2).status()).as("no rematch").isEqualTo(202);
		Response withZ = b.join(a.session(), 4, 2);
		assertThat(withZ.status()).isEqualTo(200);
		assertThat(a.status(x).field("room_id")).isEqualTo(withZ.field("room_id"));
		assertThat(a.status(y).field("status")).isEqualTo("waiting");
		String token = a.session();
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(5))
			.until(() -> waiting(a, token, 4) == 1 && waiting(b, token, 4) == 1);

		String reported = a.session();
		List<String> reporters = List.of(a.session(), b.session(), a.session());
		for (String reporter : reporters) {
			RoomFeatures.shareARoom(RoomFeatures.from(b, 50, 1), reported, b, reporter, 1);
		}
		assertThat(a.join(reported, 2, 2).status()).isEqualTo(202);
		assertThat(b.join(b.session(), 1, 2).status()).as("B's ban cache read before the ban").isEqualTo(202);
		for (int r = 0; r < reporters.size(); r++) {
			// three reporters from three networks
			assertThat(RoomFeatures.from(a, r + 1, 1)
				.send("POST", "/api/matching/reports", reporters.get(r), "{\"reason\":\"SPAM\"}")
				.status()).isEqualTo(201);
		}
		assertThat(instances.redis.opsForZSet().size(RedisKeys.queue(2, 2))).as("out of its queue").isZero();
		assertThat(a.join(reported, 2, 2).status()).isEqualTo(403);
		// B hears of the ban with its clock still: its cache read before the ban is
		// within
		// ban-cache-ttl; the network the banned session joined its rooms from goes too
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(5))
			.until(() -> RoomFeatures.from(b, 50, 2).send("POST", "/api/sessions", null, null).status() == 403);
		assertThat(b.join(reported, 2, 2).status()).isEqualTo(403);

		Response topic = RoomFeatures.admin(a, "POST", "/api/admin/topics",
				"{\"name\":\"Cluster " + System.nanoTime() + "\"}");
		assertThat(topic.status()).isEqualTo(201);
		long topicId = topic.json().get("id").asLong();
		assertThat(a.join(a.session(), topicId, 2).status()).isEqualTo(202);
		instances.clock.advance(Duration.ofSeconds(5));
		assertThat(b.join(b.session(), topicId, 2).status()).as("within B's topic-cache-ttl").isEqualTo(200);
	}

	private static int waiting(Api api, String token, long topicId) {
		for (var queue : api.send("GET", "/api/matching/queues", token, null).json().get("queues")) {
			if (queue.get("topic_id").asLong() == topicId && queue.get("size").asInt() == 2) {
				return queue.get("waiting").asInt();
			}
		}
		return -1;
	}

	@Test
	void aRoomFormedOnInstanceAIsPushedToTheStreamOnInstanceB() throws Exception {
		String x = instances.b.session();
		String y = instances.a.session();
		EventStream stream = instances.b.http().events("/api/matching/events", x);
		BlockingQueue<String> lines = stream.lines();
		assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(":subscribed");
		assertThat(instances.b.join(x, 42, 2).status()).isEqualTo(202);
		Response formedOnA = instances.a.join(y, 42, 2);
		assertThat(formedOnA.status()).isEqualTo(200);
		assertThat(StreamLines.next(lines, 10)).isEqualTo("event:matched");
		assertThat(Api.JSON.readTree(StreamLines.next(lines, 10).substring("data:".length())))
			.isEqualTo(formedOnA.json());
		stream.close();
	}

	@Test
	void aThousandConcurrentClientsOnTwoInstancesNeverShareARoom() throws Exception {
		Crowd crowd = new Crowd(instances, false);
		crowd.run(1_000, () -> {
		});
		crowd.assertFinalState(1_000);
	}

	@Test
	void scriptsLoadAgainOnAPromotedReplicaThatHasNoneCached() throws Exception {
		RedisCluster cluster = RealServersExtension.redisCluster();
		String x = instances.a.session();
		String y = instances.b.session();
		assertThat(instances.a.join(x, 3, 2).status()).isEqualTo(202);
		RedisServer primary = cluster.primaryFor(RedisKeys.queue(3, 2));
		RedisServer replica = cluster.replicaOf(primary);
		String joinScript = instances.instanceA.getBean(FormRoomScript.class).joinSha1();
		try (Jedis toPrimary = new Jedis("127.0.0.1", primary.port());
				Jedis toReplica = new Jedis("127.0.0.1", replica.port())) {
			primary.awaitReplicated(Duration.ofSeconds(5));
			assertThat(toPrimary.scriptExists(joinScript)).isTrue();
			assertThat(toReplica.scriptExists(joinScript)).as("scripts are not replicated").isFalse();
		}
		primary.kill();
		cluster.awaitPromoted(replica, Duration.ofSeconds(30));
		try {
			Response matched = instances.b.join(y, 3, 2);
			for (int attempt = 0; matched.status() == 503 && attempt < 50; attempt++) {
				Thread.sleep(200);
				matched = instances.b.join(y, 3, 2);
			}
			assertThat(matched.status()).as(matched.body()).isEqualTo(200);
			assertThat(instances.a.status(x).body()).isEqualTo(matched.body());
		}
		finally {
			cluster.heal(Duration.ofSeconds(60));
		}
	}

	/** How many primaries hold these keys. */
	private static long primaries(RedisCluster cluster, String... keys) {
		return Arrays.stream(keys).map((key) -> cluster.primaryFor(key).port()).distinct().count();
	}

}
