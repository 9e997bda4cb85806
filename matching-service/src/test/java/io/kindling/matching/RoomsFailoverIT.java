package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Response;
import io.kindling.infra.servers.ProcessSignals;
import io.kindling.infra.servers.RedisSentinels;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.RedisMode;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rooms through a Redis failover that loses acknowledged writes: a primary with a replica
 * and three Sentinels, chosen by {@code spring.data.redis.sentinel.*} alone, two
 * instances of the service. The replica is made to miss the writes of rooms forming, the
 * primary is killed and the replica promoted: MySQL refuses a second live room for the
 * people Redis put back in their queues, and nobody ends in two live conversations or
 * stuck.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching", redis = RedisMode.SENTINEL)
class RoomsFailoverIT {

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

	@AfterEach
	void heal() {
		RealServersExtension.redisSentinels().heal(Duration.ofSeconds(60));
	}

	@Test
	void roomsTheReplicaNeverSawPutNobodyInTwoLiveConversations() throws Exception {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		Api a = instances.a;
		Api b = instances.b;
		long before = conversations();
		double refusedBefore = instances.counter("kindling.matching.rooms.undone", "reason", "refused");
		List<String> first = new ArrayList<>();
		List<String> second = new ArrayList<>();
		List<String> newcomers = new ArrayList<>();
		for (int topic = 1; topic <= 3; topic++) {
			first.add(b.session());
			second.add(a.session());
			newcomers.add(a.session());
			assertThat(b.join(first.get(topic - 1), topic, 2).status()).isEqualTo(202);
		}
		RedisServer primary = sentinels.primary();
		RedisServer replica = sentinels.replica();
		String joinScript = instances.instanceA.getBean(FormRoomScript.class).joinSha1();
		try (Jedis toPrimary = new Jedis("127.0.0.1", primary.port());
				Jedis toReplica = new Jedis("127.0.0.1", replica.port())) {
			// the sessions and the first joins are on the replica; no script ever is
			primary.awaitReplicated(Duration.ofSeconds(5));
			assertThat(toReplica.scriptExists(joinScript)).isFalse();
		}

		sentinels.missWrites();
		List<Response> formed = new ArrayList<>();
		for (int topic = 1; topic <= 3; topic++) {
			Response matched = a.join(second.get(topic - 1), topic, 2);
			assertThat(matched.status()).as(matched.body()).isEqualTo(200);
			formed.add(matched);
		}
		assertThat(conversations() - before).isEqualTo(3);
		// for the message of a check that finds the loss did not happen as arranged
		String arranged = "the Sentinels name " + sentinels.primary().port() + " primary; killed " + primary.port()
				+ " (" + replication(primary) + "), frozen " + replica.port();
		primary.kill();
		ProcessSignals.resume(replica);
		sentinels.awaitPromoted(replica, Duration.ofSeconds(30));

		// the loss happened: the promoted primary has the first joins waiting in their
		// queues, and neither the pops nor the second joins
		try (Jedis promoted = new Jedis("127.0.0.1", replica.port())) {
			for (int topic = 1; topic <= 3; topic++) {
				String waiting = first.get(topic - 1);
				String join = promoted.hget(RedisKeys.claim(waiting), "join");
				assertThat(join)
					.as("the first join's claim, back to waiting: %s (%s; promoted: %s)",
							promoted.hgetAll(RedisKeys.claim(waiting)), arranged, replication(replica))
					.isNotNull();
				assertThat(promoted.zscore(RedisKeys.queue(topic, 2), waiting + ":" + join)).isNotNull();
				assertThat(promoted.exists(RedisKeys.claim(second.get(topic - 1)))).isFalse();
			}
		}

		// a stream opened after the failover still hears its room formed on the other
		// instance
		assertThat(retried(() -> b.status(newcomers.get(0))).status()).isEqualTo(200);
		EventStream stream = b.http().events("/api/matching/events", newcomers.get(0));
		BlockingQueue<String> lines = stream.lines();
		assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(":subscribed");

		for (int topic = 1; topic <= 3; topic++) {
			String room = formed.get(topic - 1).body();
			// the second joiner's claim was lost: its poll finds its room in MySQL
			assertThat(retried(() -> b.status(second.get(0))).status()).isEqualTo(200);
			assertThat(b.status(second.get(topic - 1)).body()).isEqualTo(room);
			// the first waits in its queue again until the next arrival pops it: MySQL
			// refuses the new room, so it is told its room and the newcomer keeps waiting
			assertThat(a.status(first.get(topic - 1)).field("status")).isEqualTo("waiting");
			int t = topic;
			Response newcomer = retried(() -> a.join(newcomers.get(t - 1), t, 2));
			assertThat(newcomer.status()).as(newcomer.body()).isEqualTo(202);
			assertThat(a.status(first.get(topic - 1)).body()).isEqualTo(room);
			assertThat(b.status(newcomers.get(topic - 1)).field("status")).isEqualTo("waiting");
		}
		assertThat(conversations() - before).isEqualTo(3);
		assertThat(instances.counter("kindling.matching.rooms.undone", "reason", "refused") - refusedBefore)
			.isEqualTo(3);

		// the newcomer's room forms with the next arrival and is pushed to its stream
		String last = a.session();
		Response matched = a.join(last, 1, 2);
		assertThat(matched.status()).isEqualTo(200);
		assertThat(StreamLines.next(lines, 15)).isEqualTo("event:matched");
		assertThat(Api.JSON.readTree(StreamLines.next(lines, 15).substring("data:".length())))
			.isEqualTo(matched.json());
		stream.close();
		for (String token : List.of(first.get(0), second.get(0), newcomers.get(0), last)) {
			assertThat(instances.jdbc.sql("SELECT COUNT(*) FROM conversation_participants WHERE participant_key = :key")
				.param("key", Session.keyOf(token))
				.query(Long.class)
				.single()).as("conversations of one session").isEqualTo(1);
		}
	}

	@Test
	void aThousandClientsThroughAFailoverNeverShareARoomNorEndStuck() throws Exception {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		Crowd crowd = new Crowd(instances, true);
		long before = conversations();
		crowd.run(1_000, () -> {
			// the crowd is in full swing before the replica stops hearing it
			await().atMost(Duration.ofSeconds(60)).until(() -> conversations() >= before + 30);
			RedisServer primary = sentinels.primary();
			RedisServer replica = sentinels.replica();
			long frozenAt = conversations();
			sentinels.missWrites();
			await().atMost(Duration.ofSeconds(20)).until(() -> conversations() >= frozenAt + 20);
			long during = conversations() - frozenAt;
			primary.kill();
			ProcessSignals.resume(replica);
			sentinels.awaitPromoted(replica, Duration.ofSeconds(30));
			assertThat(during).as("rooms formed while the replica missed their writes").isPositive();
		});
		crowd.assertFinalState(1_000);
		assertThat(crowd.retried.get()).as("503s retried during the failover").isPositive();
		// the writes lost were found again in MySQL: rooms refused, or claims recovered
		assertThat(instances.counter("kindling.matching.rooms.undone", "reason", "refused")
				+ instances.counter("kindling.matching.claims.recovered"))
			.isPositive();
	}

	private static String replication(RedisServer node) {
		try (Jedis jedis = new Jedis("127.0.0.1", node.port())) {
			return jedis.info("replication")
				.lines()
				.filter((line) -> line.startsWith("role:") || line.startsWith("connected_slaves:")
						|| line.startsWith("master_repl_offset:"))
				.collect(Collectors.joining(" "));
		}
		catch (RuntimeException ex) {
			return "unreachable: " + ex.getMessage();
		}
	}

	private static long conversations() {
		return instances.jdbc.sql("SELECT COUNT(*) FROM conversations").query(Long.class).single();
	}

	/** As a client retries while the service finds the new primary. */
	private static Response retried(Supplier<Response> request) throws InterruptedException {
		Response response = request.get();
		for (int attempt = 0; response.status() == 503 && attempt < 100; attempt++) {
			Thread.sleep(100);
			response = request.get();
		}
		return response;
	}

}
