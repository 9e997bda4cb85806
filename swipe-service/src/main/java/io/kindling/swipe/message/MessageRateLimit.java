package io.kindling.swipe.message;

import java.time.Clock;

import io.kindling.redis.TokenBucket;
import io.kindling.support.web.ProblemType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Each user's messages per second ({@code kindling.swipe.messages.*}), a token bucket in
 * Redis in the user's own slot, shared by every instance and device.
 */
@Component
class MessageRateLimit {

	private static final Logger log = LoggerFactory.getLogger(MessageRateLimit.class);

	private final @Nullable TokenBucket bucket;

	private final Clock clock;

	MessageRateLimit(StringRedisTemplate redis, MessageProperties properties, Clock clock) {
		this.bucket = (properties.perSecond() == 0) ? null
				: new TokenBucket(redis, properties.perSecond(), properties.burst());
		this.clock = clock;
	}

	/**
	 * Counts a message the user is about to send.
	 * @throws io.kindling.support.web.Refused {@code rate-limited} past the limit
	 */
	void count(long userId) {
		if (this.bucket == null) {
			return;
		}
		TokenBucket.Taken taken;
		try {
			taken = this.bucket.take(key(userId), this.clock.millis());
		}
		catch (DataAccessException ex) {
			// Redis is a fast path here: the message is MySQL's, and a limit nobody can
			// count for a moment is not a reason to refuse it
			log.warn("Could not count a message of user {} against the rate limit; letting it through", userId, ex);
			return;
		}
		if (!taken.taken()) {
			throw ProblemType.RATE_LIMITED.refused(
					"You are sending messages too fast; retry in " + taken.retryAfterSeconds() + " s.",
					taken.retryAfter());
		}
	}

	static String key(long userId) {
		return "message_rate:{" + userId + "}";
	}

}
