package io.kindling.swipe.superlike;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

import io.kindling.swipe.swipe.SwipeRecorded;
import io.kindling.swipe.swipe.SwipeRewound;

import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Active super likes per target, {@code super_likes:{<targetId>}} scored by expiry (ms):
 * a SUPER_LIKE adds its sender for {@code kindling.swipe.super-like-ttl}; the sender
 * rewinding takes it away, and the target's next deck consumes those the target has
 * answered (swiped the sender, or blocked either way): cleaning up while a deck is built
 * costs no Redis command on the swipe path.
 */
@Component
public class SuperLikes {

	private static final String SUPER_LIKE = "SUPER_LIKE";

	private final StringRedisTemplate redis;

	private final ActiveSuperLikesScript activeScript;

	private final SuperLikeProperties properties;

	private final Clock clock;

	SuperLikes(StringRedisTemplate redis, ActiveSuperLikesScript activeScript, SuperLikeProperties properties,
			Clock clock) {
		this.redis = redis;
		this.activeScript = activeScript;
		this.properties = properties;
		this.clock = clock;
	}

	static String key(long targetId) {
		return "super_likes:{" + targetId + "}";
	}

	/** Senders whose super like to this user is still active, soonest expiry first. */
	public List<Long> activeFor(long userId, Instant now, int limit) {
		return this.activeScript.active(userId, now, limit);
	}

	/** Removes super likes the user has answered; see {@code DeckAssembler}. */
	public void consume(long userId, Collection<Long> senders) {
		if (!senders.isEmpty()) {
			this.redis.opsForZSet().remove(key(userId), senders.stream().map(String::valueOf).toArray());
		}
	}

	/**
	 * Only a super like touches the set: a swipe answering one is consumed at the next
	 * deck, which checks every super liker against the swipe filter anyway, instead of
	 * costing every swipe a round trip.
	 */
	@EventListener
	void on(SwipeRecorded swipe) {
		if (SUPER_LIKE.equals(swipe.action())) {
			long expiry = this.clock.millis() + this.properties.superLikeTtl().toMillis();
			this.redis.opsForZSet().add(key(swipe.targetUserId()), String.valueOf(swipe.userId()), expiry);
			// the newest super like outlives every older one: the set goes when they all
			// expired
			this.redis.expire(key(swipe.targetUserId()), this.properties.superLikeTtl());
		}
	}

	@EventListener
	void on(SwipeRewound rewind) {
		if (SUPER_LIKE.equals(rewind.action())) {
			this.redis.opsForZSet().remove(key(rewind.targetUserId()), String.valueOf(rewind.userId()));
		}
	}

}
