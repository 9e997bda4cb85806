package io.kindling.redis.pubsub;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.kindling.infra.servers.RedisCluster;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.RedisMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Shard channels on a Redis Cluster: each heard on the primary of its slot, one
 * connection per primary, and heard again on the promoted replica after its primary is
 * killed.
 */
@RealServers(value = Server.REDIS, redis = RedisMode.CLUSTER)
class ShardChannelsOnClusterIT extends ShardChannelsTestBase {

	private JedisCluster publisher;

	@Override
	JedisConnectionFactory connect() {
		List<String> nodes = Arrays.asList(RealServersExtension.redisCluster().nodes().split(","));
		JedisConnectionFactory factory = new JedisConnectionFactory(new RedisClusterConfiguration(nodes));
		factory.afterPropertiesSet();
		factory.start();
		this.publisher = new JedisCluster(nodes.stream().map(HostAndPort::from).collect(Collectors.toSet()));
		return factory;
	}

	@Override
	void publish(String channel, String message) {
		this.publisher.spublish(channel, message);
	}

	@AfterEach
	void heal() {
		this.publisher.close();
		RealServersExtension.redisCluster().heal(Duration.ofSeconds(60));
	}

	@Test
	void aChannelWhosePrimaryDiesIsHeardAgainOnItsPromotedReplicaAndToldSo() {
		RedisCluster cluster = RealServersExtension.redisCluster();
		List<String> names = IntStream.range(0, CHANNELS).mapToObj((i) -> "test-failover:{room-" + i + "}").toList();
		names.forEach(this.channels::subscribe);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.channels.subscribed().containsAll(names));
		String victim = names.get(0);
		RedisServer primary = cluster.primaryFor(victim);
		RedisServer replica = cluster.replicaOf(primary);
		List<String> onIt = names.stream().filter((name) -> cluster.primaryFor(name).equals(primary)).toList();
		Set<String> elsewhere = names.stream().filter((name) -> !onIt.contains(name)).collect(Collectors.toSet());

		primary.kill();
		cluster.awaitPromoted(replica, Duration.ofSeconds(30));
		// every node's view of the slot agrees once the promotion has gone round
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.until(() -> cluster.primaryFor(victim).port() == replica.port());

		// every channel of the dead primary is subscribed again, and said so
		await().atMost(Duration.ofSeconds(30))
			.until(() -> onIt.stream().allMatch((name) -> this.heard.subscriptions(name) == 2));
		await().atMost(Duration.ofSeconds(30)).until(() -> this.channels.subscribed().containsAll(names));
		for (String name : names) {
			publish(name, "after the failover");
		}
		await().atMost(Duration.ofSeconds(20))
			.until(() -> names.stream().allMatch((name) -> this.heard.of(name).contains("after the failover")));
		// the others never lost theirs
		for (String name : elsewhere) {
			assertThat(this.heard.subscriptions(name)).as(name).isOne();
			assertThat(this.heard.of(name)).containsExactly("after the failover");
		}
	}

}
