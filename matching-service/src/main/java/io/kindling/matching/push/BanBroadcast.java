package io.kindling.matching.push;

import java.util.List;
import java.util.UUID;

import io.kindling.matching.ban.BansChanged;
import io.kindling.push.PushSubscriptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Takes every ban made here to every other instance over Redis pub/sub, where it is told
 * as if made there: their ban lists read the table again and their waiting sessions
 * banned leave their queues, at once instead of within {@code ban-cache-ttl}. Pub/sub
 * keeps nothing for an instance that is away: on every (re)subscription an instance reads
 * its bans again, and a change missed meanwhile bites within {@code ban-cache-ttl}, when
 * forming drops a banned participant it pops.
 */
@Configuration(proxyBeanMethods = false)
class BanBroadcast {

	static final String CHANNEL = "matching:bans";

	private static final Logger log = LoggerFactory.getLogger(BanBroadcast.class);

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	/** Tells this instance's own messages from the others'. */
	private final String instance = UUID.randomUUID().toString();

	BanBroadcast(StringRedisTemplate redis, JsonMapper json) {
		this.redis = redis;
		this.json = json;
	}

	@Bean
	RedisMessageListenerContainer bansListener(RedisConnectionFactory connections, ApplicationEventPublisher events) {
		return PushSubscriptions.container(connections, CHANNEL, new Listener(events, this.json, this.instance),
				"bans-delivery");
	}

	@EventListener
	void on(BansChanged changed) {
		if (changed.heard()) {
			return;
		}
		try {
			this.redis.convertAndSend(CHANNEL, this.json
				.writeValueAsString(new BansMessage(this.instance, changed.sessionKeys(), changed.addresses())));
		}
		catch (DataAccessException ex) {
			// the ban is made and bites here; elsewhere within ban-cache-ttl
			log.warn("Could not tell the other instances of a ban", ex);
		}
	}

	/**
	 * @param instance the instance that made the change
	 */
	record BansMessage(String instance, List<String> sessionKeys, boolean addresses) {

	}

	/**
	 * @param instance this instance's name in the messages it sends
	 */
	private record Listener(ApplicationEventPublisher events, JsonMapper json,
			String instance) implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte[] pattern) {
			BansMessage heard = this.json.readValue(message.getBody(), BansMessage.class);
			if (!this.instance.equals(heard.instance())) {
				this.events.publishEvent(BansChanged.made(heard.sessionKeys(), heard.addresses()).heardElsewhere());
			}
		}

		/** Changes missed while not subscribed: the ban list reads the table again. */
		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			this.events.publishEvent(BansChanged.made(List.of(), false).heardElsewhere());
		}

	}

}
