package io.kindling.swipe.moderation;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.kindling.outbox.SqlTime;
import io.kindling.support.paging.Cursor;
import io.kindling.swipe.match.MatchOutbox;
import io.kindling.swipe.match.MatchPush;
import io.kindling.swipe.match.MatchRemoved;
import io.kindling.swipe.match.MatchStore;
import io.kindling.swipe.match.RemovalReason;
import io.kindling.swipe.moderation.AdminAudit.Action;
import io.kindling.swipe.paging.PagingRefusals;
import io.kindling.swipe.security.Operator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * User bans, in {@code user_bans}. A ban ends the user's matches ({@code MATCH_REMOVED},
 * reason {@code BANNED}) in its own transaction; once that commits, the ban bites on this
 * instance (calls refused, streams ended) and on the others within {@code ban-refresh}.
 * Lifting a ban gives back nothing it ended.
 *
 * <p>
 * A ban and a match being written for the user cannot pass each other: the ban locks the
 * user's profile row first, and a match's transaction locks both profiles and reads the
 * bans ({@link #lockAndCheckBanned}) before it writes. Whichever commits second has
 * waited for the first: the match is not made, or the ban ends it.
 */
@Service
public class UserBans {

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	private static final Logger log = LoggerFactory.getLogger(UserBans.class);

	private final JdbcClient jdbc;

	private final MatchStore matches;

	private final MatchOutbox outbox;

	private final MatchPush push;

	private final BannedUsers banned;

	private final AdminAudit audit;

	private final TransactionTemplate transactions;

	private final ApplicationEventPublisher events;

	private final Clock clock;

	UserBans(JdbcClient jdbc, MatchStore matches, MatchOutbox outbox, MatchPush push, BannedUsers banned,
			AdminAudit audit, TransactionTemplate transactions, ApplicationEventPublisher events, Clock clock) {
		this.jdbc = jdbc;
		this.matches = matches;
		this.outbox = outbox;
		this.push = push;
		this.banned = banned;
		this.audit = audit;
		this.transactions = transactions;
		this.events = events;
		this.clock = clock;
	}

	/**
	 * In a match's transaction, before the match is written: locks the two profiles (a
	 * ban of either waits, or is waited for) and says whether either is banned.
	 */
	public boolean lockAndCheckBanned(long userA, long userB) {
		this.jdbc.sql("SELECT user_id FROM profiles WHERE user_id IN (:a, :b) ORDER BY user_id LOCK IN SHARE MODE")
			.param("a", userA)
			.param("b", userB)
			.query(Long.class)
			.list();
		// a locking read sees the latest committed rows whatever the isolation level
		return !this.jdbc.sql("""
				SELECT user_id FROM user_bans
				WHERE user_id IN (:a, :b) AND (expires_at IS NULL OR expires_at > FROM_UNIXTIME(:now))
				LOCK IN SHARE MODE
				""")
			.param("a", userA)
			.param("b", userB)
			.param("now", SqlTime.epochSeconds(this.clock.instant()))
			.query(Long.class)
			.list()
			.isEmpty();
	}

	/**
	 * {@code POST /api/admin/user-bans}.
	 * @param expiresAt null for a ban with no end
	 */
	BanView ban(Operator operator, long userId, String reason, @Nullable Instant expiresAt) {
		if (userId <= 0) {
			throw ModerationRefusals.BAD_BAN.refused("user_id must be a user id.");
		}
		Instant now = now();
		Instant ends = (expiresAt != null) ? expiresAt.truncatedTo(ChronoUnit.MICROS) : null;
		if (ends != null && !ends.isAfter(now)) {
			throw ModerationRefusals.BAD_BAN.refused("expires_at must be in the future.");
		}
		return Objects
			.requireNonNull(this.transactions
				.execute((tx) -> banIfNotBanned(operator, userId, reason, ends, null, now).orElseThrow(
						() -> ModerationRefusals.ALREADY_BANNED.refused("User " + userId + " is banned already."))))
			.view(now);
	}

	/**
	 * Bans the user in the caller's transaction unless a ban of theirs is in force: ends
	 * their matches (each with its {@code MATCH_REMOVED} row and its push to both people)
	 * and writes the audit row; once the transaction commits, the ban bites here and the
	 * ended matches are published.
	 * @param reportId the report whose resolution bans them, if one
	 * @return the ban, or empty when one was in force already (nothing written)
	 */
	Optional<Ban> banIfNotBanned(Operator operator, long userId, String reason, @Nullable Instant expiresAt,
			@Nullable Long reportId, Instant now) {
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("a ban, the matches it ends and its audit row are one transaction");
		}
		// first: a match being written for this user finishes before, or sees the ban
		this.jdbc.sql("SELECT user_id FROM profiles WHERE user_id = :userId FOR UPDATE")
			.param("userId", userId)
			.query(Long.class)
			.optional();
		Optional<Ban> held = this.jdbc.sql("""
				SELECT user_id, reason, report_id, banned_by, created_at, expires_at FROM user_bans
				WHERE user_id = :userId FOR UPDATE
				""").param("userId", userId).query(UserBans::ban).optional();
		if (held.isPresent() && held.get().activeAt(now)) {
			return Optional.empty();
		}
		this.jdbc.sql("""
				INSERT INTO user_bans (user_id, reason, report_id, banned_by, created_at, expires_at)
				VALUES (:userId, :reason, :reportId, :bannedBy, FROM_UNIXTIME(:now), FROM_UNIXTIME(:expiresAt))
				ON DUPLICATE KEY UPDATE reason = VALUES(reason), report_id = VALUES(report_id),
				    banned_by = VALUES(banned_by), created_at = VALUES(created_at), expires_at = VALUES(expires_at)
				""")
			.param("userId", userId)
			.param("reason", reason)
			.param("reportId", reportId, java.sql.Types.BIGINT)
			.param("bannedBy", operator.tokenId())
			.param("now", SqlTime.epochSeconds(now))
			.param("expiresAt", (expiresAt != null) ? SqlTime.epochSeconds(expiresAt) : null, java.sql.Types.DECIMAL)
			.update();
		List<MatchRemoved> ended = this.matches.endAllOf(userId, RemovalReason.BANNED, now);
		ended.forEach(this.outbox::matchRemoved);
		ended.forEach(this.push::removed);
		this.audit.record(operator, Action.USER_BANNED, "user:" + userId, reason
				+ ((expiresAt != null) ? " (until " + expiresAt + ")" : "") + "; matches ended: " + ended.size());
		afterCommit(ended);
		return Optional.of(new Ban(userId, reason, reportId, operator.tokenId(), now, expiresAt));
	}

	/** {@code DELETE /api/admin/user-bans/{user_id}}: nothing it ended comes back. */
	void lift(Operator operator, long userId) {
		this.transactions.executeWithoutResult((tx) -> {
			int deleted = this.jdbc.sql("DELETE FROM user_bans WHERE user_id = :userId")
				.param("userId", userId)
				.update();
			if (deleted == 0) {
				throw ModerationRefusals.NO_SUCH_BAN.refused("User " + userId + " is not banned.");
			}
			this.audit.record(operator, Action.USER_BAN_LIFTED, "user:" + userId, null);
			afterCommit(List.of());
		});
	}

	/** Newest first, in force and expired alike. */
	BanPage page(Operator operator, @Nullable String cursor, int limit) {
		Cursor after = Cursor.parse(cursor, PagingRefusals.BAD_CURSOR);
		this.audit.record(operator, Action.USER_BANS_LISTED, null, null);
		List<Ban> rows = this.jdbc.sql("""
				SELECT user_id, reason, report_id, banned_by, created_at, expires_at FROM user_bans
				WHERE created_at < FROM_UNIXTIME(:at) OR (created_at = FROM_UNIXTIME(:at) AND user_id < :after)
				ORDER BY created_at DESC, user_id DESC
				LIMIT :fetch
				""")
			.param("at", SqlTime.epochSeconds(after.at()))
			.param("after", after.id())
			.param("fetch", limit + 1)
			.query(UserBans::ban)
			.list();
		Instant now = now();
		List<BanView> shown = rows.stream().limit(limit).map((ban) -> ban.view(now)).toList();
		if (rows.size() <= limit) {
			return new BanPage(shown, null);
		}
		Ban last = rows.get(limit - 1);
		return new BanPage(shown, new Cursor(last.createdAt(), last.userId()).encode());
	}

	/**
	 * Once the caller's transaction commits: the bans are read again here (a ban bites, a
	 * lifted one stops biting, the banned user's streams end), and the matches it ended
	 * are published.
	 */
	private void afterCommit(List<MatchRemoved> ended) {
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCommit() {
				try {
					UserBans.this.banned.refresh();
				}
				catch (RuntimeException ex) {
					// committed and answered; the next refresh reads it
					log.warn("Could not read the user bans again after a change", ex);
				}
				for (MatchRemoved removed : ended) {
					try {
						UserBans.this.events.publishEvent(removed);
					}
					catch (RuntimeException ex) {
						// the ban is committed and answered; the listeners only tell the
						// streams
						log.warn("a MatchRemoved listener failed for match {}", removed.matchId(), ex);
					}
				}
			}
		});
	}

	private Instant now() {
		return this.clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	private static Ban ban(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
		Timestamp expiresAt = rs.getTimestamp("expires_at");
		long reportId = rs.getLong("report_id");
		return new Ban(rs.getLong("user_id"), rs.getString("reason"), rs.wasNull() ? null : reportId,
				rs.getString("banned_by"), rs.getTimestamp("created_at").toInstant(),
				(expiresAt != null) ? expiresAt.toInstant() : null);
	}

	/**
	 * @param reportId the report whose resolution made it, if one did
	 * @param bannedBy the id of the operators' token that made it
	 * @param expiresAt null for a ban with no end
	 */
	record Ban(long userId, String reason, @Nullable Long reportId, String bannedBy, Instant createdAt,
			@Nullable Instant expiresAt) {

		boolean activeAt(Instant now) {
			return this.expiresAt == null || this.expiresAt.isAfter(now);
		}

		BanView view(Instant now) {
			return new BanView(this.userId, this.reason, this.reportId, this.bannedBy, this.createdAt, this.expiresAt,
					activeAt(now));
		}

	}

	/** A ban as the operators' API shows it; {@code active} is false once it expired. */
	record BanView(long userId, String reason, @Nullable Long reportId, String bannedBy, Instant createdAt,
			@Nullable Instant expiresAt, boolean active) {

	}

	record BanPage(List<BanView> bans, @Nullable String nextCursor) {

	}

}
