package io.kindling.infra.test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import io.kindling.infra.servers.ProcessSignals;
import io.kindling.infra.servers.RedisCluster;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The harness's Redis Cluster is real: keys spread over three primaries, a script may not
 * cross slots, and a replica that missed writes is promoted without them.
 */
@RealServers(value = Server.REDIS, redis = RedisMode.CLUSTER)
class RedisClusterTests {

	@Test
	void threePrimariesServeTheSlotsAndAScriptMayNotCrossThem() {
		RedisCluster cluster = RealServersExtension.redisCluster();
		assertThat(System.getProperty("spring.data.redis.cluster.nodes")).isEqualTo(cluster.nodes());
		assertThat(System.getProperty("spring.data.redis.host")).isNull();
		try (JedisCluster redis = client(cluster)) {
			redis.set("{a}one", "1");
			redis.set("{b}two", "2");
			assertThat(cluster.primaryFor("{a}one").port()).isNotEqualTo(cluster.primaryFor("{b}two").port());
			try (Jedis direct = new Jedis("127.0.0.1", cluster.primaryFor("{a}one").port())) {
				assertThat(direct.get("{a}one")).isEqualTo("1");
			}
			assertThat(redis.eval("return redis.call('GET', KEYS[1]) .. redis.call('GET', KEYS[2])",
					java.util.List.of("{a}one", "{a}one"), java.util.List.of()))
				.isEqualTo("11");
			try (Jedis direct = new Jedis("127.0.0.1", cluster.primaryFor("{a}one").port())) {
				assertThatException()
					.isThrownBy(() -> direct.eval("return redis.call('GET', KEYS[1]) .. redis.call('GET', KEYS[2])",
							java.util.List.of("{a}one", "{b}two"), java.util.List.of()))
					.withMessageContaining("CROSSSLOT");
			}
		}
	}

	@Test
	void aReplicaThatMissedWritesIsPromotedWithoutThem() {
		RedisCluster cluster = RealServersExtension.redisCluster();
		// every node agreeing on who replicates whom, each replica in sync: a cluster
		// just
		// created may still be spreading that when this test runs first
		cluster.heal(Duration.ofSeconds(60));
		try (JedisCluster redis = client(cluster)) {
			redis.set("{lost}before", "kept");
			RedisServer primary = cluster.primaryFor("{lost}before");
			RedisServer replica = cluster.replicaOf(primary);
			// acknowledged by the replica before it is cut off
			primary.awaitReplicated(Duration.ofSeconds(5));
			cluster.missWrites(replica);
			redis.set("{lost}after", "acknowledged by the primary only");
			primary.kill();
			ProcessSignals.resume(replica);
			cluster.awaitPromoted(replica, Duration.ofSeconds(30));

			assertThat(redis.get("{lost}before")).isEqualTo("kept");
			assertThat(redis.get("{lost}after")).isNull();
			cluster.heal(Duration.ofSeconds(60));
			assertThat(primary.isRunning()).isTrue();
			assertThat(Set.of(cluster.replicaOf(replica).port())).containsExactly(primary.port());
		}
	}

	private static JedisCluster client(RedisCluster cluster) {
		Set<HostAndPort> nodes = new HashSet<>();
		cluster.servers().forEach((node) -> nodes.add(new HostAndPort("127.0.0.1", node.port())));
		return new JedisCluster(nodes);
	}

}
