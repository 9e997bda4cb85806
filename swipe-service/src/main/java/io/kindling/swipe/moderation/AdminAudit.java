package io.kindling.swipe.moderation;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import io.kindling.outbox.SqlTime;
import io.kindling.support.paging.Cursor;
import io.kindling.swipe.paging.PagingRefusals;
import io.kindling.swipe.security.Operator;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code admin_audit} table: one row per operators' call, who (the token's id), what,
 * about whom, when. A call that changes something writes its row in the transaction of
 * the change, so there is no change without its row; a call that only reads writes its
 * row before it reads.
 */
@Repository
class AdminAudit {

	static final int PAGE_SIZE = 50;

	static final int MAX_PAGE_SIZE = 200;

	private static final int MAX_DETAIL = 1000;

	private final JdbcClient jdbc;

	private final Clock clock;

	AdminAudit(JdbcClient jdbc, Clock clock) {
		this.jdbc = jdbc;
		this.clock = clock;
	}

	/** What an operator did; the subject and detail as the API shows them. */
	enum Action {

		REPORTS_LISTED, REPORT_RESOLVED, USER_BANNED, USER_BAN_LIFTED, USER_BANS_LISTED, AUDIT_LISTED

	}

	void record(Operator who, Action what, @Nullable String subject, @Nullable String detail) {
		String shortened = (detail != null && detail.length() > MAX_DETAIL) ? detail.substring(0, MAX_DETAIL) : detail;
		this.jdbc.sql("""
				INSERT INTO admin_audit (token_id, action, subject, detail, created_at)
				VALUES (:tokenId, :action, :subject, :detail, FROM_UNIXTIME(:now))
				""")
			.param("tokenId", who.tokenId())
			.param("action", what.name())
			.param("subject", subject, java.sql.Types.VARCHAR)
			.param("detail", shortened, java.sql.Types.VARCHAR)
			.param("now", SqlTime.epochSeconds(this.clock.instant().truncatedTo(ChronoUnit.MICROS)))
			.update();
	}

	/**
	 * Newest first, keyset-paged on (created_at, audit_id); the reading operator's own
	 * row is written first.
	 */
	EntryPage page(Operator operator, @Nullable String cursor, int limit) {
		Cursor after = Cursor.parse(cursor, PagingRefusals.BAD_CURSOR);
		record(operator, Action.AUDIT_LISTED, null, null);
		List<Entry> rows = this.jdbc.sql("""
				SELECT audit_id, token_id, action, subject, detail, created_at FROM admin_audit
				WHERE created_at < FROM_UNIXTIME(:at) OR (created_at = FROM_UNIXTIME(:at) AND audit_id < :after)
				ORDER BY created_at DESC, audit_id DESC
				LIMIT :fetch
				""")
			.param("at", SqlTime.epochSeconds(after.at()))
			.param("after", after.id())
			.param("fetch", limit + 1)
			.query((rs, row) -> new Entry(rs.getLong("audit_id"), rs.getString("token_id"), rs.getString("action"),
					rs.getString("subject"), rs.getString("detail"), rs.getTimestamp("created_at").toInstant()))
			.list();
		if (rows.size() <= limit) {
			return new EntryPage(rows, null);
		}
		List<Entry> page = rows.subList(0, limit);
		Entry last = page.get(limit - 1);
		return new EntryPage(List.copyOf(page), new Cursor(last.createdAt(), last.auditId()).encode());
	}

	/**
	 * @param tokenId who: the id of the operators' token that made the call
	 * @param subject whom or what it was about ({@code user:42}, {@code report:7}), if
	 * one
	 */
	record Entry(long auditId, String tokenId, String action, @Nullable String subject, @Nullable String detail,
			Instant createdAt) {

	}

	record EntryPage(List<Entry> entries, @Nullable String nextCursor) {

	}

}
