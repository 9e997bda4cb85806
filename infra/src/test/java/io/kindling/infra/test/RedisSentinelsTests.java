package io.kindling.infra.test;

import java.time.Duration;

import io.kindling.infra.servers.ProcessSignals;
import io.kindling.infra.servers.RedisSentinels;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import static org.assertj.core.api.Assertions.assertThat;

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
			assertThat(toPrimary.waitReplicas(1, 5_000)).isEqualTo(1);
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

}
