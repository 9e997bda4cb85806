package io.kindling.redis.pubsub;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;

import io.kindling.infra.servers.RedisSentinels;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.RedisMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Shard channels behind Sentinels: heard on the primary, and on the promoted replica once
 * the primary is killed.
 */
@RealServers(value = Server.REDIS, redis = RedisMode.SENTINEL)
class ShardChannelsFailoverIT extends ShardChannelsTestBase {

	@Override
	JedisConnectionFactory connect() {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		JedisConnectionFactory factory = new JedisConnectionFactory(new RedisSentinelConfiguration(
				sentinels.masterName(), new HashSet<>(Arrays.asList(sentinels.sentinelNodes().split(",")))));
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	@Override
	void publish(String channel, String message) {
		try (Jedis jedis = new Jedis("127.0.0.1", RealServersExtension.redisSentinels().primary().port())) {
			jedis.sendCommand(Protocol.Command.SPUBLISH, channel, message);
		}
	}

	@AfterEach
	void heal() {
		RealServersExtension.redisSentinels().heal(Duration.ofSeconds(60));
	}

	@Test
	void theChannelsAreHeardAgainOnThePromotedReplicaAndToldSo() {
		RedisSentinels sentinels = RealServersExtension.redisSentinels();
		List<String> names = IntStream.range(0, 5).mapToObj((i) -> "test-failover:{room-" + i + "}").toList();
		names.forEach(this.channels::subscribe);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.channels.subscribed().containsAll(names));
		RedisServer primary = sentinels.primary();
		RedisServer replica = sentinels.replica();

		primary.kill();
		sentinels.awaitPromoted(replica, Duration.ofSeconds(30));
		assertThat(sentinels.primary().port()).isEqualTo(replica.port());

		await().atMost(Duration.ofSeconds(30))
			.until(() -> names.stream().allMatch((name) -> this.heard.subscriptions(name) == 2));
		for (String name : names) {
			publish(name, "after the failover");
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> names.stream().allMatch((name) -> this.heard.of(name).contains("after the failover")));
	}

}
