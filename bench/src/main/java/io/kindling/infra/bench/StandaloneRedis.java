package io.kindling.infra.bench;

import java.nio.file.Path;
import java.util.List;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.RedisServer;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/** One {@code redis-server} on a free port. */
final class StandaloneRedis implements BenchRedis {

	private final RedisServer server;

	private final JedisPooled client;

	private StandaloneRedis(RedisServer server) {
		this.server = server;
		this.client = new JedisPooled("127.0.0.1", server.port());
	}

	static StandaloneRedis start(Path dir) {
		return new StandaloneRedis(BenchRedis.startOrClose(new RedisServer(dir, FreePorts.pick()), RedisServer::start,
				RedisServer::close));
	}

	@Override
	public List<String> serviceSettings() {
		return List.of("--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + this.server.port());
	}

	@Override
	public List<Long> pids() {
		return List.of(this.server.pid());
	}

	@Override
	public List<Integer> ports() {
		return List.of(this.server.port());
	}

	@Override
	public UnifiedJedis client() {
		return this.client;
	}

	@Override
	public void close() {
		this.client.close();
		this.server.close();
	}

}
