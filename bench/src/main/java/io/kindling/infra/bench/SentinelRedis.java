package io.kindling.infra.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import io.kindling.infra.servers.ProcessSignals;
import io.kindling.infra.servers.RedisSentinels;
import io.kindling.infra.servers.RedisServer;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisSentineled;
import redis.clients.jedis.UnifiedJedis;

/**
 * A primary, its replica and three Sentinels on free ports ({@link RedisSentinels}),
 * which a service finds through {@code spring.data.redis.sentinel.master} and
 * {@code .nodes}; it can fail over.
 */
final class SentinelRedis implements BenchRedis {

	private final RedisSentinels sentinels;

	private final JedisSentineled client;

	private SentinelRedis(RedisSentinels sentinels) {
		this.sentinels = sentinels;
		this.client = new JedisSentineled(sentinels.masterName(), DefaultJedisClientConfig.builder().build(),
				Arrays.stream(sentinels.sentinelNodes().split(",")).map(HostAndPort::from).collect(Collectors.toSet()),
				DefaultJedisClientConfig.builder().build());
	}

	static SentinelRedis start(Path dir) {
		return new SentinelRedis(
				BenchRedis.startOrClose(new RedisSentinels(dir), RedisSentinels::start, RedisSentinels::close));
	}

	@Override
	public List<String> serviceSettings() {
		return List.of("--spring.data.redis.sentinel.master=" + this.sentinels.masterName(),
				"--spring.data.redis.sentinel.nodes=" + this.sentinels.sentinelNodes());
	}

	@Override
	public List<Long> pids() {
		return List.of(this.sentinels.primary().pid(), this.sentinels.replica().pid());
	}

	@Override
	public List<Integer> ports() {
		return List.of(this.sentinels.primary().port(), this.sentinels.replica().port());
	}

	@Override
	public UnifiedJedis client() {
		return this.client;
	}

	@Override
	public Failover failOver(Duration missWrites, Duration timeout) throws InterruptedException {
		RedisServer primary = this.sentinels.primary();
		RedisServer replica = this.sentinels.replica();
		long frozen = System.nanoTime();
		if (missWrites.isPositive()) {
			this.sentinels.missWrites();
			Thread.sleep(missWrites);
		}
		long killed = System.nanoTime();
		primary.kill();
		if (missWrites.isPositive()) {
			// thawed only now: it has missed everything since it was frozen
			ProcessSignals.resume(replica);
		}
		this.sentinels.awaitPromoted(replica, timeout);
		return new Failover(missWrites.isPositive() ? frozen : killed, killed, System.nanoTime(), primary.port(),
				replica.port());
	}

	@Override
	public void close() {
		this.client.close();
		this.sentinels.close();
	}

}
