package io.kindling.matching.push;

import io.kindling.matching.join.MatchingStatus;
import java.util.List;

import io.kindling.matching.room.RoomBackfilled;
import io.kindling.matching.room.RoomFormed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.event.EventListener;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Publishes every room formed here to all instances (this one included), since the
 * participants' streams may be open anywhere.
 */
@Component
class MatchedPublisher {

	private static final Logger log = LoggerFactory.getLogger(MatchedPublisher.class);

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	MatchedPublisher(StringRedisTemplate redis, JsonMapper json) {
		this.redis = redis;
		this.json = json;
	}

	/**
	 * A newcomer seated in a room that lost someone: {@code matched} to its own streams,
	 * {@code member_joined} to the others', on every instance.
	 */
	@EventListener
	void on(RoomBackfilled seated) {
		try {
			this.redis.convertAndSend(MatchedMessage.CHANNEL, this.json
				.writeValueAsString(new MatchedMessage(List.of(seated.token()), MatchingStatus.matched(seated))));
			this.redis.convertAndSend(MemberJoined.CHANNEL, this.json.writeValueAsString(MemberJoined.of(seated)));
		}
		catch (DataAccessException ex) {
			// the newcomer has its answer; the others see it in the room's socket
			log.warn("Could not publish the newcomer of room {}", seated.roomId(), ex);
		}
	}

	@EventListener
	void on(RoomFormed room) {
		if (room.tokens().isEmpty()) {
			return;
		}
		MatchedMessage message = new MatchedMessage(room.tokens(), MatchingStatus.matched(room));
		try {
			this.redis.convertAndSend(MatchedMessage.CHANNEL, this.json.writeValueAsString(message));
		}
		catch (DataAccessException ex) {
			// the room is formed and written; its participants learn of it by their next
			// poll, or by the catch-up of a subscription that Redis's absence broke
			log.warn("Could not publish room {}", room.roomId(), ex);
		}
	}

}
