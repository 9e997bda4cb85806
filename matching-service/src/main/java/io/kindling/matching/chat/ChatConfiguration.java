package io.kindling.matching.chat;

import java.time.Clock;

import io.kindling.redis.pubsub.ShardChannels;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.handler.ExceptionWebSocketHandlerDecorator;
import org.springframework.web.socket.server.HandshakeHandler;
import org.springframework.web.socket.server.support.DefaultHandshakeHandler;

/**
 * A room's conversation: the sockets here, the shard channels they hear their rooms on,
 * and the handshake the controller upgrades with.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ChatProperties.class)
class ChatConfiguration {

	/**
	 * The largest frame a client may send: a message of 1,000 characters is at most 4,000
	 * bytes of UTF-8, or 12,000 written as JSON escapes; a larger one closes the socket
	 * (1009). Set on each socket as it opens (Tomcat sizes its buffer by it at each new
	 * message), not on the container: a container bean needs a real server, and every
	 * test context without one would fail to start.
	 */
	static final int MAX_FRAME_BYTES = 16 * 1024;

	@Bean
	ChatFrames chatFrames(JsonMapper json) {
		return new ChatFrames(json);
	}

	@Bean
	ChatSockets chatSockets(ChatStore store, ChatFrames frames, ChatProperties properties) {
		return new ChatSockets(store, frames, properties.history());
	}

	/**
	 * The subscriptions to the rooms' channels, one connection per Redis primary used.
	 */
	@Bean(destroyMethod = "close")
	ShardChannels chatChannels(RedisConnectionFactory connections, ChatSockets sockets) {
		ShardChannels channels = new ShardChannels((JedisConnectionFactory) connections, sockets, "chat-channels");
		sockets.hearThrough(channels);
		return channels;
	}

	@Bean
	WebSocketHandler chatSocketHandler(ChatSockets sockets, ChatStore store, ChatFrames frames,
			ChatProperties properties, Clock clock) {
		// an exception in the handler closes that socket (1011), never the instance's
		// others
		return new ExceptionWebSocketHandlerDecorator(new ChatSocketHandler(sockets, store, frames, properties, clock));
	}

	@Bean
	HandshakeHandler chatHandshake() {
		return new DefaultHandshakeHandler();
	}

}
