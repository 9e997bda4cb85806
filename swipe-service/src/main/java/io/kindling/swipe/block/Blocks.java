package io.kindling.swipe.block;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import io.kindling.outbox.SqlTime;
import io.kindling.support.paging.Cursor;
import io.kindling.swipe.match.MatchOutbox;
import io.kindling.swipe.match.MatchPush;
import io.kindling.swipe.match.MatchRemoved;
import io.kindling.swipe.match.MatchStore;
import io.kindling.swipe.match.RemovalReason;
import io.kindling.swipe.paging.PagingRefusals;
import io.kindling.swipe.profile.ProfileDirectory;
import io.kindling.swipe.profile.ProfileRefusals;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Blocks, in {@code user_blocks} (one row per blocker and blocked). A block hides the two
 * from each other everywhere (the deck, profiles, likes you: each reads this table), ends
 * their match if they have one, and keeps any later like from making one: the block and a
 * match's transaction serialise on the pair's {@link PairLock}.
 */
@Service
public class Blocks {

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	private static final Logger log = LoggerFactory.getLogger(Blocks.class);

	private final JdbcClient jdbc;

	private final PairLock pairs;

	private final MatchStore matches;

	private final MatchOutbox outbox;

	private final MatchPush push;

	private final ProfileDirectory profiles;

	private final TransactionTemplate transactions;

	private final ApplicationEventPublisher events;

	private final Clock clock;

	Blocks(JdbcClient jdbc, PairLock pairs, MatchStore matches, MatchOutbox outbox, MatchPush push,
			ProfileDirectory profiles, TransactionTemplate transactions, ApplicationEventPublisher events,
			Clock clock) {
		this.jdbc = jdbc;
		this.pairs = pairs;
		this.matches = matches;
		this.outbox = outbox;
		this.push = push;
		this.profiles = profiles;
		this.transactions = transactions;
		this.events = events;
		this.clock = clock;
	}

	/**
	 * @param created false when the block was there already (nothing changed)
	 * @param blockedAt when the block was first made
	 * @param endedMatch the match this block ended, if any
	 */
	public record Blocked(boolean created, Instant blockedAt, @Nullable MatchRemoved endedMatch) {

	}

	Blocked block(long blockerId, long blockedId) {
		return block(blockerId, blockedId, (at) -> {
		});
	}

	/**
	 * Blocks {@code blockedId} for {@code blockerId}, idempotently, ending their match,
	 * and runs {@code alsoInTransaction} (given the block's time) in the same
	 * transaction, so that what it writes exists exactly when the block does. Someone who
	 * blocked the caller first is refused as a missing profile is, and nothing is
	 * written: their block already hides the two from each other, and any other answer
	 * would tell the caller about it.
	 */
	public Blocked block(long blockerId, long blockedId, Consumer<Instant> alsoInTransaction) {
		if (blockedId <= 0) {
			throw BlockRefusals.BAD_BLOCK.refused("user_id must be a user id.");
		}
		if (blockerId == blockedId) {
			throw BlockRefusals.BAD_BLOCK.refused("You cannot block yourself.");
		}
		if (!this.profiles.exists(blockedId)) {
			throw ProfileRefusals.unknownTarget(blockedId);
		}
		Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
		Blocked blocked = LockConflicts.retried(() -> Objects.requireNonNull(this.transactions.execute((tx) -> {
			// first: a match being written for this pair finishes before, or sees the
			// block; a block of the pair the other way round waits too
			this.pairs.lock(blockerId, blockedId);
			Map<Long, Instant> blocks = blocksBetween(blockerId, blockedId);
			Instant existing = blocks.get(blockerId);
			if (existing == null && blocks.containsKey(blockedId)) {
				throw ProfileRefusals.unknownTarget(blockedId);
			}
			if (existing == null) {
				this.jdbc.sql("""
						INSERT INTO user_blocks (user_id, blocked_user_id, created_at)
						VALUES (:blocker, :blocked, FROM_UNIXTIME(:now))
						""")
					.param("blocker", blockerId)
					.param("blocked", blockedId)
					.param("now", SqlTime.epochSeconds(now))
					.update();
			}
			Optional<MatchRemoved> ended = this.matches.endBetween(blockerId, blockedId, blockerId,
					RemovalReason.BLOCKED, now);
			ended.ifPresent(this.outbox::matchRemoved);
			ended.ifPresent(this.push::removed);
			alsoInTransaction.accept(now);
			return new Blocked(existing == null, (existing != null) ? existing : now, ended.orElse(null));
		})));
		if (blocked.endedMatch() != null) {
			try {
				this.events.publishEvent(blocked.endedMatch());
			}
			catch (RuntimeException ex) {
				// the block is committed and answered; the listeners only tell the
				// streams
				log.warn("a MatchRemoved listener failed for the block of {} by {}", blockedId, blockerId, ex);
			}
		}
		return blocked;
	}

	/** The blocks between the two, by blocker: when each blocked the other. */
	private Map<Long, Instant> blocksBetween(long userA, long userB) {
		return this.jdbc.sql("""
				SELECT user_id, created_at FROM user_blocks
				WHERE (user_id = :a AND blocked_user_id = :b) OR (user_id = :b AND blocked_user_id = :a)
				""")
			.param("a", userA)
			.param("b", userB)
			.query((rs, row) -> Map.entry(rs.getLong("user_id"), rs.getTimestamp("created_at").toInstant()))
			.list()
			.stream()
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
	}

	/**
	 * Lifts the block, if there is one. An ended match stays ended; the two can see each
	 * other again.
	 */
	void unblock(long blockerId, long blockedId) {
		this.jdbc.sql("DELETE FROM user_blocks WHERE user_id = :blocker AND blocked_user_id = :blocked")
			.param("blocker", blockerId)
			.param("blocked", blockedId)
			.update();
	}

	/** The user's blocks, newest first, keyset-paged on (created_at, blocked_user_id). */
	BlockPage page(long userId, @Nullable String cursor, int limit) {
		Cursor after = Cursor.parse(cursor, PagingRefusals.BAD_CURSOR);
		List<BlockView> rows = this.jdbc
			.sql("""
					SELECT blocked_user_id, created_at FROM user_blocks
					WHERE user_id = :userId
					  AND (created_at < FROM_UNIXTIME(:at) OR (created_at = FROM_UNIXTIME(:at) AND blocked_user_id < :after))
					ORDER BY created_at DESC, blocked_user_id DESC
					LIMIT :fetch
					""")
			.param("userId", userId)
			.param("at", SqlTime.epochSeconds(after.at()))
			.param("after", after.id())
			.param("fetch", limit + 1)
			.query((rs, row) -> new BlockView(rs.getLong("blocked_user_id"), rs.getTimestamp("created_at").toInstant()))
			.list();
		if (rows.size() <= limit) {
			return new BlockPage(rows, null);
		}
		List<BlockView> page = rows.subList(0, limit);
		BlockView last = page.get(limit - 1);
		return new BlockPage(List.copyOf(page), new Cursor(last.blockedAt(), last.userId()).encode());
	}

	record BlockView(long userId, Instant blockedAt) {

	}

	record BlockPage(List<BlockView> blocks, @Nullable String nextCursor) {

	}

}
