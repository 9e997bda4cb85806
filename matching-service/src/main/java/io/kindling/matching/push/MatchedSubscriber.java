package io.kindling.matching.push;

import java.util.List;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.SimpleAsyncTaskExecutor;

/** Hears rooms formed on any instance and pushes them to the streams open here. */
@Configuration(proxyBeanMethods = false)
class MatchedSubscriber {

	@Bean
	RedisMessageListenerContainer matchedListener(RedisConnectionFactory connections, MatchStreams streams,
			JsonMapper json) {
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(connections);
		// the default executor starts a platform thread for every message: thousands a
		// minute at a hundred rooms a second
		SimpleAsyncTaskExecutor delivery = new SimpleAsyncTaskExecutor("matched-delivery-");
		delivery.setVirtualThreads(true);
		container.setTaskExecutor(delivery);
		MessageListener listener = (Message message, byte[] pattern) -> {
			byte[] body = message.getBody();
			List<String> tokens = MatchedMessage.leadingTokens(json, body);
			if (tokens != null && !streams.holdsAny(tokens)) {
				return;
			}
			MatchedMessage matched = json.readValue(body, MatchedMessage.class);
			for (String token : matched.tokens()) {
				streams.matched(token, matched.status());
			}
		};
		container.addMessageListener(listener, new ChannelTopic(MatchedMessage.CHANNEL));
		return container;
	}

}
