package io.kindling.swipe.match;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;

import io.kindling.outbox.SqlTime;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

@Service
class Matches {

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	private final JdbcClient jdbc;

	private final MatchOutbox outbox;

	private final TransactionTemplate transactions;

	private final Clock clock;

	private final MatchPush push;

	Matches(JdbcClient jdbc, MatchOutbox outbox, TransactionTemplate transactions, Clock clock, MatchPush push) {
		this.jdbc = jdbc;
		this.outbox = outbox;
		this.transactions = transactions;
		this.clock = clock;
		this.push = push;
	}

	/**
	 * Newest first, keyset-paged on (matched_at, match_id): each half of the UNION walks
	 * its own index from the cursor down, so a page costs the same on page 1 and page
	 * 500.
	 */
	MatchPage page(long userId, @Nullable String cursor, int limit) {
		Cursor after = (cursor == null || cursor.isEmpty()) ? Cursor.FIRST : Cursor.parse(cursor);
		List<MatchView> rows = this.jdbc.sql("""
				(SELECT match_id, user_id_2 AS other_user_id, matched_at FROM matches
				 WHERE user_id_1 = :userId AND removed_at IS NULL
				   AND (matched_at < FROM_UNIXTIME(:at) OR (matched_at = FROM_UNIXTIME(:at) AND match_id < :matchId))
				 ORDER BY matched_at DESC, match_id DESC LIMIT :fetch)
				UNION ALL
				(SELECT match_id, user_id_1 AS other_user_id, matched_at FROM matches
				 WHERE user_id_2 = :userId AND removed_at IS NULL
				   AND (matched_at < FROM_UNIXTIME(:at) OR (matched_at = FROM_UNIXTIME(:at) AND match_id < :matchId))
				 ORDER BY matched_at DESC, match_id DESC LIMIT :fetch)
				ORDER BY matched_at DESC, match_id DESC
				LIMIT :fetch
				""")
			.param("userId", userId)
			.param("at", SqlTime.epochSeconds(after.matchedAt()))
			.param("matchId", after.matchId())
			.param("fetch", limit + 1)
			.query((rs, row) -> new MatchView(rs.getLong("match_id"), rs.getLong("other_user_id"),
					rs.getTimestamp("matched_at").toInstant()))
			.list();
		if (rows.size() <= limit) {
			return new MatchPage(rows, null);
		}
		List<MatchView> page = rows.subList(0, limit);
		MatchView last = page.get(limit - 1);
		return new MatchPage(List.copyOf(page), new Cursor(last.matchedAt(), last.matchId()).encode());
	}

	/**
	 * Soft: the row stays (so the pair never matches again by accident and history is
	 * kept), and a {@code MATCH_REMOVED} event leaves with it, pushed to both people once
	 * it commits. Removing twice is a no-op.
	 */
	void unmatch(long userId, long matchId) {
		this.transactions.executeWithoutResult((tx) -> {
			StoredMatch match = this.jdbc.sql("""
					SELECT match_id, user_id_1, user_id_2, matched_at, removed_at FROM matches
					WHERE match_id = :matchId
					FOR UPDATE
					""")
				.param("matchId", matchId)
				.query((rs,
						row) -> new StoredMatch(
								new MatchRef(rs.getLong("match_id"), rs.getLong("user_id_1"), rs.getLong("user_id_2"),
										rs.getTimestamp("matched_at").toInstant()),
								rs.getTimestamp("removed_at") != null))
				.optional()
				.filter((found) -> found.match().userId1() == userId || found.match().userId2() == userId)
				// someone else's match is as invisible as a missing one
				.orElseThrow(() -> new MatchRefused(MatchRefused.Reason.NO_SUCH_MATCH,
						"You have no match " + matchId + "."));
			if (match.removed()) {
				return;
			}
			Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
			this.jdbc.sql("""
					UPDATE matches SET removed_at = FROM_UNIXTIME(:now), removed_by = :userId
					WHERE match_id = :matchId AND removed_at IS NULL
					""")
				.param("now", SqlTime.epochSeconds(now))
				.param("userId", userId)
				.param("matchId", matchId)
				.update();
			this.outbox.matchRemoved(match.match(), now, userId);
			this.push.removed(match.match());
		});
	}

	record MatchView(long matchId, long userId, Instant matchedAt) {

	}

	record MatchPage(List<MatchView> matches, @Nullable String nextCursor) {

	}

	private record StoredMatch(MatchRef match, boolean removed) {

	}

	/** An opaque position: base64url of "epochMicros:matchId". */
	record Cursor(Instant matchedAt, long matchId) {

		/**
		 * Before every match: the last instant a {@code TIMESTAMP} holds (FROM_UNIXTIME
		 * is NULL past it).
		 */
		static final Cursor FIRST = new Cursor(Instant.parse("2038-01-19T03:14:07.999999Z"), Long.MAX_VALUE);

		static Cursor parse(String cursor) {
			try {
				String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII)
					.split(":");
				long micros = Long.parseLong(parts[0]);
				return new Cursor(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), Long.parseLong(parts[1]));
			}
			catch (RuntimeException ex) {
				throw new MatchRefused(MatchRefused.Reason.BAD_CURSOR,
						"cursor must be a next_cursor from an earlier page.");
			}
		}

		String encode() {
			long micros = ChronoUnit.MICROS.between(Instant.EPOCH, this.matchedAt);
			return Base64.getUrlEncoder()
				.withoutPadding()
				.encodeToString((micros + ":" + this.matchId).getBytes(StandardCharsets.US_ASCII));
		}

	}

}
