package io.kindling.matching;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

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
		String z = a.session();
		assertThat(a.join(x, 1, 3).status()).isEqualTo(202);
		assertThat(b.join(y, 1, 3).status()).isEqualTo(202);
		List<Integer> primaries = List.of(cluster.primaryFor(RedisKeys.queue(1, 3)).port(),
				cluster.primaryFor(RedisKeys.claim(x)).port(), cluster.primaryFor(RedisKeys.claim(y)).port(),
				cluster.primaryFor(RedisKeys.claim(z)).port());
		assertThat(primaries.stream().distinct().count()).as("primaries holding the keys of one room").isGreaterThan(1);
		assertThat(a.join(x, 2, 2).status()).isEqualTo(409);

		Api.Response matched = b.join(z, 1, 3);
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

	@Test
	void aRoomFormedOnInstanceAIsPushedToTheStreamOnInstanceB() throws Exception {
		String x = instances.b.session();
		String y = instances.a.session();
		BlockingQueue<String> lines = new LinkedBlockingQueue<>();
		var stream = HttpClient.newHttpClient()
			.sendAsync(
					HttpRequest.newBuilder(URI.create(instances.b.base() + "/api/matching/events"))
						.header("Authorization", "Bearer " + x)
						.build(),
					HttpResponse.BodyHandlers.fromLineSubscriber(new TwoInstancesIT.LineCollector(lines)));
		assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(":subscribed");
		assertThat(instances.b.join(x, 42, 2).status()).isEqualTo(202);
		Api.Response formedOnA = instances.a.join(y, 42, 2);
		assertThat(formedOnA.status()).isEqualTo(200);
		assertThat(nextNonEmpty(lines)).isEqualTo("event:matched");
		assertThat(Api.JSON.readTree(nextNonEmpty(lines).substring("data:".length()))).isEqualTo(formedOnA.json());
		stream.cancel(true);
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
			assertThat(toPrimary.waitReplicas(1, 5_000)).isEqualTo(1);
			assertThat(toPrimary.scriptExists(joinScript)).isTrue();
			assertThat(toReplica.scriptExists(joinScript)).as("scripts are not replicated").isFalse();
		}
		primary.kill();
		cluster.awaitPromoted(replica, Duration.ofSeconds(30));
		try {
			Api.Response matched = instances.b.join(y, 3, 2);
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

	private static String nextNonEmpty(BlockingQueue<String> lines) throws InterruptedException {
		while (true) {
			String line = lines.poll(10, TimeUnit.SECONDS);
			assertThat(line).as("a line of the event stream within 10 s").isNotNull();
			if (!line.isEmpty()) {
				return line;
			}
		}
	}

}
