package io.kindling.swipe.likes;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import io.kindling.outbox.SqlTime;
import io.kindling.support.paging.Cursor;
import io.kindling.swipe.paging.PagingRefusals;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Who liked or super-liked the user and is still waiting for an answer: their like
 * stands, the user has not swiped on them, neither has blocked the other, and they are
 * not banned. Super likers first, then newest first; read in two tiers, each one range of
 * {@code idx_swipe_liked_me (active_target, action, created_at)} walked from the cursor
 * down, so page 50 costs what page 1 does.
 */
@Repository
class LikesYou {

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	/** The tiers, in the order they are shown. */
	private static final List<String> TIERS = List.of("SUPER_LIKE", "LIKE");

	/** One tier's page: a backward walk of one range of idx_swipe_liked_me. */
	static final String TIER = """
			SELECT liked.swipe_id, liked.user_id, liked.created_at FROM swipe_history liked
			WHERE liked.active_target = :userId AND liked.action = :action
			  AND (liked.created_at < FROM_UNIXTIME(:at) OR (liked.created_at = FROM_UNIXTIME(:at) AND liked.swipe_id < :after))
			  AND NOT EXISTS (SELECT 1 FROM swipe_history answered
			                  WHERE answered.user_id = :userId AND answered.active_target = liked.user_id)
			  AND NOT EXISTS (SELECT 1 FROM user_blocks blocked
			                  WHERE blocked.user_id = :userId AND blocked.blocked_user_id = liked.user_id)
			  AND NOT EXISTS (SELECT 1 FROM user_blocks blocker
			                  WHERE blocker.user_id = liked.user_id AND blocker.blocked_user_id = :userId)
			  AND NOT EXISTS (SELECT 1 FROM user_bans banned
			                  WHERE banned.user_id = liked.user_id
			                    AND (banned.expires_at IS NULL OR banned.expires_at > FROM_UNIXTIME(:now)))
			ORDER BY liked.created_at DESC, liked.swipe_id DESC
			LIMIT :fetch
			""";

	private final JdbcClient jdbc;

	private final Clock clock;

	LikesYou(JdbcClient jdbc, Clock clock) {
		this.jdbc = jdbc;
		this.clock = clock;
	}

	LikesPage page(long userId, @Nullable String cursor, int limit) {
		Cursor after = Cursor.parse(cursor, TIERS.size(), PagingRefusals.BAD_CURSOR);
		List<Row> likes = new ArrayList<>(limit + 1);
		int tier = after.tier();
		// one row past the page tells whether another page follows
		for (Cursor from = after; tier < TIERS.size() && likes.size() <= limit; from = Cursor.startOf(++tier)) {
			likes.addAll(tier(userId, TIERS.get(tier), from, limit + 1 - likes.size()));
		}
		List<Like> page = likes.stream().limit(limit).map(Row::like).toList();
		if (likes.size() <= limit) {
			return new LikesPage(page, null);
		}
		Row last = likes.get(limit - 1);
		return new LikesPage(page,
				new Cursor(last.like().superLike() ? 0 : 1, last.like().likedAt(), last.swipeId()).encode());
	}

	private List<Row> tier(long userId, String action, Cursor after, int fetch) {
		return this.jdbc.sql(TIER)
			.param("userId", userId)
			.param("action", action)
			.param("at", SqlTime.epochSeconds(after.at()))
			.param("after", after.id())
			.param("now", SqlTime.epochSeconds(this.clock.instant()))
			.param("fetch", fetch)
			.query((rs,
					row) -> new Row(new Like(rs.getLong("user_id"), "SUPER_LIKE".equals(action),
							rs.getTimestamp("created_at").toInstant()), rs.getLong("swipe_id")))
			.list();
	}

	record Like(long userId, boolean superLike, Instant likedAt) {

	}

	/** A like as read, with its row's id: the cursor's tie-breaker, not shown. */
	private record Row(Like like, long swipeId) {

	}

	record LikesPage(List<Like> likes, @Nullable String nextCursor) {

	}

}
