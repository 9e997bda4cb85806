package io.kindling.infra.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import io.kindling.infra.servers.RedisCluster;
import io.kindling.infra.servers.RedisServer;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.UnifiedJedis;

/**
 * A Redis Cluster of three primaries and three replicas on free ports
 * ({@link RedisCluster}), which a service joins through
 * {@code spring.data.redis.cluster.nodes}.
 */
final class ClusterRedis implements BenchRedis {

	private final RedisCluster cluster;

	private final JedisCluster client;

	private ClusterRedis(RedisCluster cluster) {
		this.cluster = cluster;
		this.client = new JedisCluster(Set.of(HostAndPort.from(cluster.nodes().split(",")[0])));
	}

	static ClusterRedis start(Path dir) {
		return new ClusterRedis(
				BenchRedis.startOrClose(new RedisCluster(dir), RedisCluster::start, RedisCluster::close));
	}

	@Override
	public List<String> serviceSettings() {
		return List.of("--spring.data.redis.cluster.nodes=" + this.cluster.nodes());
	}

	@Override
	public List<Long> pids() {
		return this.cluster.servers().stream().map(RedisServer::pid).toList();
	}

	@Override
	public List<Integer> ports() {
		return this.cluster.servers().stream().map(RedisServer::port).toList();
	}

	@Override
	public UnifiedJedis client() {
		return this.client;
	}

	@Override
	public void close() {
		this.client.close();
		this.cluster.close();
	}

}
