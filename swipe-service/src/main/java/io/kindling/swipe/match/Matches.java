package io.kindling.swipe.match;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import io.kindling.outbox.SqlTime;
import io.kindling.support.paging.Cursor;
import io.kindling.swipe.paging.PagingRefusals;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

@Service
class Matches {

	private static final Logger log = LoggerFactory.getLogger(Matches.class);

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	private final JdbcClient jdbc;

	private final MatchStore store;

	private final MatchOutbox outbox;

	private final MatchPush push;

	private final TransactionTemplate transactions;

	private final ApplicationEventPublisher events;

	private final MatchThreads threads;

	private final Clock clock;

	Matches(JdbcClient jdbc, MatchStore store, MatchOutbox outbox, MatchPush push, TransactionTemplate transactions,
			ApplicationEventPublisher events, MatchThreads threads, Clock clock) {
		this.jdbc = jdbc;
		this.store = store;
		this.outbox = outbox;
		this.push = push;
		this.transactions = transactions;
		this.events = events;
		this.threads = threads;
		this.clock = clock;
	}

	/**
	 * Newest first, keyset-paged on (matched_at, match_id): each half of the UNION walks
	 * its own index from the cursor down, so a page costs the same on page 1 and page
	 * 500. Each match comes with its conversation's last message and unread count.
	 */
	MatchPage page(long userId, @Nullable String cursor, int limit) {
		Cursor after = Cursor.parse(cursor, PagingRefusals.BAD_CURSOR);
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
			.param("at", SqlTime.epochSeconds(after.at()))
			.param("matchId", after.id())
			.param("fetch", limit + 1)
			.query((rs, row) -> new MatchView(rs.getLong("match_id"), rs.getLong("other_user_id"),
					rs.getTimestamp("matched_at").toInstant()))
			.list();
		List<MatchView> page = rows.subList(0, Math.min(limit, rows.size()));
		Map<Long, MatchThreads.Summary> threads = this.threads.of(userId,
				page.stream().map(MatchView::matchId).toList());
		List<MatchListing> listings = page.stream().map((match) -> {
			MatchThreads.Summary thread = threads.getOrDefault(match.matchId(), MatchThreads.Summary.NONE);
			return new MatchListing(match.matchId(), match.userId(), match.matchedAt(), thread.lastMessage(),
					thread.unreadCount());
		}).toList();
		if (rows.size() <= limit) {
			return new MatchPage(listings, null);
		}
		MatchView last = page.get(limit - 1);
		return new MatchPage(listings, new Cursor(last.matchedAt(), last.matchId()).encode());
	}

	/**
	 * Soft: the row stays (so the pair never matches again by accident and history is
	 * kept), and a {@code MATCH_REMOVED} event leaves with it, pushed to both people once
	 * it commits. Removing twice is a no-op.
	 */
	void unmatch(long userId, long matchId) {
		MatchRemoved removed = this.transactions.execute((tx) -> {
			StoredMatch match = this.jdbc.sql("""
					SELECT match_id, user_id_1, user_id_2, matched_at, removed_at FROM matches
					WHERE match_id = :matchId
					FOR UPDATE
					""")
				.param("matchId", matchId)
				.query((rs, row) -> new StoredMatch(MatchStore.ref(rs, row), rs.getTimestamp("removed_at") != null))
				.optional()
				.filter((found) -> found.match().userId1() == userId || found.match().userId2() == userId)
				// someone else's match is as invisible as a missing one
				.orElseThrow(() -> MatchRefusals.NO_SUCH_MATCH.refused("You have no match " + matchId + "."));
			if (match.removed()) {
				return null;
			}
			Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
			MatchRemoved ended = this.store.end(match.match(), userId, RemovalReason.UNMATCHED, now);
			this.outbox.matchRemoved(ended);
			this.push.removed(ended);
			return ended;
		});
		if (removed != null) {
			try {
				this.events.publishEvent(removed);
			}
			catch (RuntimeException ex) {
				// the unmatch is committed and answered; the listeners only tell the
				// streams
				log.warn("a MatchRemoved listener failed for match {}", matchId, ex);
			}
		}
	}

	record MatchView(long matchId, long userId, Instant matchedAt) {

	}

	/**
	 * A match as the list shows it: the other person, and where their conversation
	 * stands.
	 */
	record MatchListing(long matchId, long userId, Instant matchedAt, @Nullable MatchMessage lastMessage,
			long unreadCount) {

	}

	record MatchPage(List<MatchListing> matches, @Nullable String nextCursor) {

	}

	private record StoredMatch(MatchRef match, boolean removed) {

	}

}
