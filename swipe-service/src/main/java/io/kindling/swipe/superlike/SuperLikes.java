package io.kindling.swipe.superlike;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.kindling.redis.LuaScript;
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

	@SuppressWarnings("rawtypes")
	private static final LuaScript<List> ACTIVE = LuaScript.load("active_super_likes", List.class);

	private final StringRedisTemplate redis;

	private final SuperLikeProperties properties;

	private final Clock clock;

	SuperLikes(StringRedisTemplate redis, SuperLikeProperties properties, Clock clock) {
		this.redis = redis;
		this.properties = properties;
		this.clock = clock;
	}

	static String key(long targetId) {
		return "super_likes:{" + targetId + "}";
	}

	/** Senders whose super like to this user is still active, soonest expiry first. */
	public List<Long> activeFor(long userId, Instant now, int limit) {
		List<?> senders = ACTIVE.run(this.redis, List.of(key(userId)), String.valueOf(now.toEpochMilli()),
				String.valueOf(limit));
		List<Long> ids = new ArrayList<>();
		if (senders != null) {
			for (Object sender : senders) {
				ids.add(Long.parseLong(sender.toString()));
			}
		}
		return ids;
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
