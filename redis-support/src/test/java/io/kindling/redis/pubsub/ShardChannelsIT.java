package io.kindling.redis.pubsub;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.redis.TestRedis;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;

import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/** Shard channels on one Redis (7.0 has sharded pub/sub without a cluster too). */
@RealServers(Server.REDIS)
class ShardChannelsIT extends ShardChannelsTestBase {

	@Override
	JedisConnectionFactory connect() {
		return TestRedis.standalone();
	}

	@Override
	void publish(String channel, String message) {
		try (Jedis jedis = new Jedis("127.0.0.1", RealServersExtension.redis().port())) {
			jedis.sendCommand(Protocol.Command.SPUBLISH, channel, message);
		}
	}

}
