package io.kindling.infra.test;

import java.time.Duration;

import io.kindling.infra.servers.ProcessSignals;
import io.kindling.infra.servers.RedisSentinels;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The harness's Sentinels are real: they promote the replica when the primary dies, and a
 * replica made to miss writes is promoted without them.
 */
@RealServers(value = Server.REDIS, redis = RedisMode.SENTINEL)
class RedisSentinelsTests {

	@Test
	void theSentinelsPromoteAReplicaThatMissedWritesWithoutThem() {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		assertThat(System.getProperty("spring.data.redis.sentinel.master")).isEqualTo(sentinels.masterName());
		assertThat(System.getProperty("spring.data.redis.sentinel.nodes")).isEqualTo(sentinels.sentinelNodes());
		assertThat(System.getProperty("spring.data.redis.cluster.nodes")).isNull();
		RedisServer primary = sentinels.primary();
		RedisServer replica = sentinels.replica();
		try (Jedis toPrimary = new Jedis("127.0.0.1", primary.port())) {
			toPrimary.set("before", "kept");
			primary.awaitReplicated(Duration.ofSeconds(5));
			sentinels.missWrites();
			toPrimary.set("after", "acknowledged by the primary only");
		}
		primary.kill();
		ProcessSignals.resume(replica);
		sentinels.awaitPromoted(replica, Duration.ofSeconds(30));

		try (Jedis promoted = new Jedis("127.0.0.1", replica.port())) {
			assertThat(promoted.get("before")).isEqualTo("kept");
			assertThat(promoted.get("after")).isNull();
		}
		sentinels.heal(Duration.ofSeconds(60));
		assertThat(sentinels.primary().port()).isEqualTo(replica.port());
		assertThat(sentinels.replica().port()).isEqualTo(primary.port());
	}

	@Test
	void aWriteFromAnyConnectionIsAwaitedUntilTheReplicaHasIt() {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		sentinels.heal(Duration.ofSeconds(60));
		RedisServer primary = sentinels.primary();
		RedisServer replica = sentinels.replica();
		ProcessSignals.pause(replica);
		try (Jedis writer = new Jedis("127.0.0.1", primary.port());
				Jedis other = new Jedis("127.0.0.1", primary.port())) {
			writer.set("written-while-paused", "1");
			// WAIT on a connection that wrote nothing counts a replica that has nothing
			assertThat(other.waitReplicas(1, 200)).isEqualTo(1);
			assertThatIllegalStateException().isThrownBy(() -> primary.awaitReplicated(Duration.ofSeconds(2)))
				.withMessageContaining("timed out");
		}
		finally {
			ProcessSignals.resume(replica);
		}
		primary.awaitReplicated(Duration.ofSeconds(10));
		try (Jedis toReplica = new Jedis("127.0.0.1", replica.port())) {
			assertThat(toReplica.get("written-while-paused")).isEqualTo("1");
		}
	}

}
