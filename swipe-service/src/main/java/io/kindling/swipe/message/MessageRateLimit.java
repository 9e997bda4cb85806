package io.kindling.swipe.message;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.kindling.redis.TokenBucket;
import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refused;
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
	 * @throws Refused {@code rate-limited} past the limit
	 */
	void count(long userId) {
		Refused refused = countAll(List.of(userId)).get(0);
		if (refused != null) {
			throw refused;
		}
	}

	/**
	 * Counts a message each of these users is about to send, in order (a user twice, two
	 * messages), in one round trip where one connection reaches every bucket.
	 * @return for each, {@code rate-limited} past the limit, else null
	 */
	List<@Nullable Refused> countAll(List<Long> userIds) {
		List<@Nullable Refused> refusals = new ArrayList<>(Collections.nCopies(userIds.size(), (Refused) null));
		if (this.bucket == null) {
			return refusals;
		}
		List<TokenBucket.Taken> taken;
		try {
			taken = this.bucket.takeAll(userIds.stream().map(MessageRateLimit::key).toList(), this.clock.millis());
		}
		catch (DataAccessException ex) {
			// Redis is a fast path here: the message is MySQL's, and a limit nobody can
			// count for a moment is not a reason to refuse it
			log.warn("Could not count {} messages against the rate limit; letting them through", userIds.size(), ex);
			return refusals;
		}
		for (int i = 0; i < taken.size(); i++) {
			if (!taken.get(i).taken()) {
				refusals.set(i, ProblemType.RATE_LIMITED.refused(
						"You are sending messages too fast; retry in " + taken.get(i).retryAfterSeconds() + " s.",
						taken.get(i).retryAfter()));
			}
		}
		return refusals;
	}

	static String key(long userId) {
		return "message_rate:{" + userId + "}";
	}

}
