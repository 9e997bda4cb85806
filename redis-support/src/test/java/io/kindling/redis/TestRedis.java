package io.kindling.redis;

import io.kindling.infra.test.RealServersExtension;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/** Connections to the real Redis a test class's {@code @RealServers} started. */
public final class TestRedis {

	private TestRedis() {
	}

	/** A started factory for the one Redis; destroy it after the class. */
	public static JedisConnectionFactory standalone() {
		JedisConnectionFactory connections = new JedisConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", RealServersExtension.redis().port()));
		connections.afterPropertiesSet();
		connections.start();
		return connections;
	}

}
