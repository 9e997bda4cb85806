package io.kindling.matching.push;

import java.util.List;
import java.util.function.BiConsumer;

import io.kindling.matching.join.JoinService;
import io.kindling.matching.join.MatchingStatus;
import io.kindling.push.PushSubscriptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Hears rooms formed on any instance and pushes them to the streams open here. Pub/sub
 * keeps nothing for a subscriber that is away: when the subscription comes back (Redis
 * restarted or failed over), every stream open here is brought up to date from the
 * tokens' state in Redis.
 */
@Configuration(proxyBeanMethods = false)
class MatchedSubscriber {

	private static final Logger log = LoggerFactory.getLogger(MatchedSubscriber.class);

	@Bean
	RedisMessageListenerContainer matchedListener(RedisConnectionFactory connections, MatchStreams streams,
			JoinService joins, JsonMapper json) {
		return PushSubscriptions.container(connections, MatchedMessage.CHANNEL, new Listener(streams, joins, json),
				"matched-delivery");
	}

	@Bean
	RedisMessageListenerContainer memberJoinedListener(RedisConnectionFactory connections, MatchStreams streams,
			JoinService joins, JsonMapper json) {
		return PushSubscriptions.container(connections, MemberJoined.CHANNEL,
				new MemberJoinedListener(streams, joins, json), "member-joined-delivery");
	}

	/**
	 * Hears newcomers seated on any instance and tells the streams open here of the
	 * room's other people. Pub/sub keeps nothing for a subscriber that is away: when the
	 * subscription comes back, every stream open here that was told of a room of three
	 * and not of its newcomer is told now, if one came (asked of MySQL, as a stream that
	 * opens is).
	 */
	private record MemberJoinedListener(MatchStreams streams, JoinService joins,
			JsonMapper json) implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte[] pattern) {
			MemberJoined joined = this.json.readValue(message.getBody(), MemberJoined.class);
			this.streams.memberJoined(joined,
					(token) -> this.joins.current(token) instanceof MatchingStatus.Matched matched
							&& matched.roomId().equals(joined.roomId()));
		}

		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			catchUp("member-joined-catch-up", this.streams, this.joins, (token, room) -> {
				if (this.streams.awaitsNewcomer(token, room.roomId())) {
					this.joins.seatedAfterNewcomer(room)
						.ifPresent((members) -> this.streams.memberJoined(token, MemberJoined.of(room, members)));
				}
			});
		}

	}

	private record Listener(MatchStreams streams, JoinService joins,
			JsonMapper json) implements MessageListener, SubscriptionListener {

		@Override
		public void onMessage(Message message, byte[] pattern) {
			byte[] body = message.getBody();
			List<String> tokens = MatchedMessage.leadingTokens(this.json, body);
			if (tokens != null && !this.streams.holdsAny(tokens)) {
				return;
			}
			MatchedMessage matched = this.json.readValue(body, MatchedMessage.class);
			for (String token : matched.tokens()) {
				this.streams.matched(token, matched.status());
			}
		}

		/**
		 * On every subscription, the first included: rooms formed while this instance was
		 * not subscribed reach their streams now (a stream already told of its room is
		 * not told again).
		 */
		@Override
		public void onChannelSubscribed(byte[] channel, long count) {
			catchUp("matched-catch-up", this.streams, this.joins, this.streams::matched);
		}

	}

	/**
	 * On a thread of its own, each token with a stream open here that is in a room, with
	 * its room, read from Redis; Redis going away again stops it (the next subscription
	 * catches up).
	 */
	private static void catchUp(String name, MatchStreams streams, JoinService joins,
			BiConsumer<String, MatchingStatus.Matched> inRoom) {
		Thread.ofVirtual().name(name).start(() -> {
			for (String token : streams.recipients()) {
				try {
					if (joins.current(token) instanceof MatchingStatus.Matched matched) {
						inRoom.accept(token, matched);
					}
				}
				catch (RuntimeException ex) {
					log.warn("Could not bring the event streams up to date ({})", name, ex);
					return;
				}
			}
		});
	}

}
