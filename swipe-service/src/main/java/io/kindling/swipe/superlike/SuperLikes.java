package io.kindling.swipe.superlike;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

import io.kindling.outbox.SqlTime;
import io.kindling.swipe.swipe.Action;
import io.kindling.swipe.swipe.SwipeRecorded;
import io.kindling.swipe.swipe.SwipeRewound;

import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
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

	private final StringRedisTemplate redis;

	private final ActiveSuperLikesScript activeScript;

	private final LoadSuperLikesScript loadScript;

	private final JdbcClient jdbc;

	private final SuperLikeProperties properties;

	private final Clock clock;

	SuperLikes(StringRedisTemplate redis, ActiveSuperLikesScript activeScript, LoadSuperLikesScript loadScript,
			JdbcClient jdbc, SuperLikeProperties properties, Clock clock) {
		this.redis = redis;
		this.activeScript = activeScript;
		this.loadScript = loadScript;
		this.jdbc = jdbc;
		this.properties = properties;
		this.clock = clock;
	}

	static String key(long targetId) {
		return "super_likes:{" + targetId + "}";
	}

	/** The set and its loaded mark, in one hash slot: the keys of both scripts. */
	static List<String> keys(long targetId) {
		return List.of(key(targetId), "super_likes_loaded:{" + targetId + "}");
	}

	/**
	 * Senders whose super like to this user is still active, soonest expiry first. A set
	 * not marked as loaded (Redis flushed, failed over, or the mark ran out after a
	 * {@code super-like-ttl}) is loaded from {@code swipe_history} first, as the swipe
	 * history filter is: MySQL is the truth, Redis the fast path.
	 */
	public List<Long> activeFor(long userId, Instant now, int limit) {
		ActiveSuperLikesScript.Active active = this.activeScript.active(userId, now, limit);
		if (active.loaded()) {
			return active.senders();
		}
		return this.loadScript.load(userId, stored(userId, now), now, limit, this.properties.superLikeTtl());
	}

	/**
	 * The standing super likes to the user from the last {@code super-like-ttl}, less
	 * those the user has answered.
	 */
	private List<SuperLike> stored(long userId, Instant now) {
		Duration ttl = this.properties.superLikeTtl();
		return this.jdbc.sql("""
				SELECT liked.user_id, liked.created_at FROM swipe_history liked
				WHERE liked.active_target = :userId AND liked.action = 'SUPER_LIKE'
				  AND liked.created_at > FROM_UNIXTIME(:since)
				  AND NOT EXISTS (SELECT 1 FROM swipe_history answered
				                  WHERE answered.user_id = :userId AND answered.active_target = liked.user_id)
				""")
			.param("userId", userId)
			.param("since", SqlTime.epochSeconds(now.minus(ttl)))
			.query((rs, row) -> new SuperLike(rs.getLong("user_id"),
					rs.getTimestamp("created_at").toInstant().plus(ttl)))
			.list();
	}

	record SuperLike(long senderId, Instant expiresAt) {

	}

	/** Removes super likes the user has answered; see {@code DeckService}. */
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
		if (swipe.action() == Action.SUPER_LIKE) {
			long expiry = this.clock.millis() + this.properties.superLikeTtl().toMillis();
			this.redis.opsForZSet().add(key(swipe.targetUserId()), String.valueOf(swipe.userId()), expiry);
			// the newest super like outlives every older one: the set goes when they all
			// expired
			this.redis.expire(key(swipe.targetUserId()), this.properties.superLikeTtl());
		}
	}

	@EventListener
	void on(SwipeRewound rewind) {
		if (rewind.action() == Action.SUPER_LIKE) {
			this.redis.opsForZSet().remove(key(rewind.targetUserId()), String.valueOf(rewind.userId()));
		}
	}

}
