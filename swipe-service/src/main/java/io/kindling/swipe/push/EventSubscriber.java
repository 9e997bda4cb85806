package io.kindling.swipe.push;

import io.kindling.push.PushSubscriptions;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Hears events published on any instance and sends them to the streams open here; when
 * the subscription is made again (Redis restarted or failed over), every stream here
 * reads what it missed from its log.
 */
@Configuration(proxyBeanMethods = false)
class EventSubscriber {

	@Bean
	RedisMessageListenerContainer userEventsListener(RedisConnectionFactory connections, UserStreams streams,
			JsonMapper json) {
		return PushSubscriptions.container(connections, PushMessage.CHANNEL, new Listener(streams, json),
				"user-events");
	}

	private record Listener(UserStreams streams, JsonMapper json) implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte[] pattern) {
			for (PushMessage.Pushed event : this.json.readValue(message.getBody(), PushMessage.class).events()) {
				this.streams.deliver(event);
			}
		}

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			Thread.ofVirtual().name("user-events-catch-up").start(this.streams::catchUp);
		}

	}

}
