package io.kindling.matching.push;

import io.kindling.matching.join.MatchingStatus;
import io.kindling.matching.room.RoomFormed;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Publishes every room formed here to all instances (this one included), since the
 * participants' streams may be open anywhere.
 */
@Component
class MatchedPublisher {

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	MatchedPublisher(StringRedisTemplate redis, JsonMapper json) {
		this.redis = redis;
		this.json = json;
	}

	@EventListener
	void on(RoomFormed room) {
		if (room.tokens().isEmpty()) {
			return;
		}
		MatchedMessage message = new MatchedMessage(room.tokens(), MatchingStatus.matched(room));
		this.redis.convertAndSend(MatchedMessage.CHANNEL, this.json.writeValueAsString(message));
	}

}
