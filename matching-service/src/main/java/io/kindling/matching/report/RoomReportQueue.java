package io.kindling.matching.report;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

import io.kindling.matching.ban.BanRefusals;
import io.kindling.matching.ban.SessionBans;
import io.kindling.outbox.SqlTime;
import io.kindling.support.paging.Cursor;
import io.kindling.support.reports.ReportResolution;
import io.kindling.support.reports.ReportStatus;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The moderators' queue of room reports, shaped as swipe-service's: open ones oldest
 * first, resolved ones most recently resolved first, each report resolved once by
 * {@code BAN} (the reported session is banned, and every other open report about it is
 * resolved with it) or {@code DISMISS}. Each report shows what the reported session last
 * wrote in that room, where room chat keeps it ({@link ReportedMessages}).
 */
@Service
class RoomReportQueue {

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	static final int MAX_NOTE = 1000;

	/** Messages shown per report. */
	static final int LAST_MESSAGES = 10;

	private static final String COLUMNS = """
			r.id, r.reported_key, r.reporter_key, c.room_id, r.conversation_id, r.reason, r.reported_at,
			r.resolved_at, r.resolution, r.resolution_note
			FROM room_reports r JOIN conversations c ON c.id = r.conversation_id""";

	private final JdbcClient jdbc;

	private final SessionBans bans;

	private final ObjectProvider<ReportedMessages> messages;

	private final TransactionTemplate transactions;

	private final Clock clock;

	RoomReportQueue(JdbcClient jdbc, SessionBans bans, ObjectProvider<ReportedMessages> messages,
			TransactionTemplate transactions, Clock clock) {
		this.jdbc = jdbc;
		this.bans = bans;
		this.messages = messages;
		this.transactions = transactions;
		this.clock = clock;
	}

	ReportPage page(ReportStatus status, @Nullable String cursor, int limit) {
		Cursor after = status.after(cursor, BanRefusals.BAD_CURSOR);
		String list = switch (status) {
			case OPEN -> """
					SELECT %s
					WHERE r.resolved_at IS NULL
					  AND (r.reported_at > FROM_UNIXTIME(:at) OR (r.reported_at = FROM_UNIXTIME(:at) AND r.id > :after))
					ORDER BY r.reported_at, r.id
					LIMIT :fetch
					""";
			case RESOLVED -> """
					SELECT %s
					WHERE r.resolved_at IS NOT NULL
					  AND (r.resolved_at < FROM_UNIXTIME(:at) OR (r.resolved_at = FROM_UNIXTIME(:at) AND r.id < :after))
					ORDER BY r.resolved_at DESC, r.id DESC
					LIMIT :fetch
					""";
		};
		List<Row> rows = this.jdbc.sql(list.formatted(COLUMNS))
			.param("at", SqlTime.epochSeconds(after.at()))
			.param("after", after.id())
			.param("fetch", limit + 1)
			.query(RoomReportQueue::row)
			.list();
		List<RoomReport> shown = rows.stream().limit(limit).map(this::withMessages).toList();
		if (rows.size() <= limit) {
			return new ReportPage(shown, null);
		}
		Row last = rows.get(limit - 1);
		return new ReportPage(shown, status.next(last.id(), last.reportedAt(), last.resolvedAt()));
	}

	/**
	 * Resolves an open report; {@code BAN} bans the reported session (unless a ban of it
	 * is in force) and resolves every other open report about it, in one transaction.
	 */
	RoomReport resolve(long reportId, ReportResolution resolution, @Nullable String note) {
		String text = (note == null || note.isBlank()) ? null : note.strip();
		Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
		Row resolved = Objects.requireNonNull(this.transactions.execute((tx) -> {
			Row report = this.jdbc.sql("SELECT " + COLUMNS + " WHERE r.id = :id FOR UPDATE")
				.param("id", reportId)
				.query(RoomReportQueue::row)
				.optional()
				.orElseThrow(() -> ReportRefusals.NO_SUCH_REPORT.refused("No report has the id " + reportId + "."));
			if (report.resolvedAt() != null) {
				throw ReportRefusals.REPORT_RESOLVED
					.refused("Report " + reportId + " was resolved already (" + report.resolution() + ").");
			}
			String update = "UPDATE room_reports SET resolved_at = FROM_UNIXTIME(:now), resolution = :resolution,"
					+ " resolution_note = :note WHERE ";
			if (resolution == ReportResolution.BAN) {
				this.bans.banByOperator(report.reportedKey(),
						"room report " + reportId + ": " + report.reason() + ((text != null) ? " (" + text + ")" : ""),
						null);
				update += "reported_key = :key AND resolved_at IS NULL";
			}
			else {
				update += "id = :id";
			}
			this.jdbc.sql(update)
				.param("now", SqlTime.epochSeconds(now))
				.param("resolution", resolution.name())
				.param("note", text, java.sql.Types.VARCHAR)
				.param("key", report.reportedKey())
				.param("id", reportId)
				.update();
			return report.resolved(resolution, text, now);
		}));
		if (resolution == ReportResolution.BAN) {
			// committed: every instance hears of it at once, and the session leaves its
			// queue
			this.bans.enforce(List.of(resolved.reportedKey()), false);
		}
		return withMessages(resolved);
	}

	private RoomReport withMessages(Row row) {
		ReportedMessages chat = this.messages.getIfAvailable();
		List<ReportedMessages.Message> last = (chat != null)
				? chat.lastMessages(row.conversationId(), row.reportedKey(), LAST_MESSAGES) : List.of();
		return new RoomReport(row.id(), row.reportedKey(), row.reporterKey(), row.roomId(), row.reason(),
				row.reportedAt(), (row.resolvedAt() == null) ? "open" : "resolved", row.resolvedAt(), row.resolution(),
				row.note(), last);
	}

	private static Row row(ResultSet rs, int row) throws SQLException {
		Timestamp resolvedAt = rs.getTimestamp("resolved_at");
		return new Row(rs.getLong("id"), rs.getString("reported_key"), rs.getString("reporter_key"),
				rs.getString("room_id"), rs.getLong("conversation_id"), rs.getString("reason"),
				rs.getTimestamp("reported_at").toInstant(), (resolvedAt != null) ? resolvedAt.toInstant() : null,
				rs.getString("resolution"), rs.getString("resolution_note"));
	}

	private record Row(long id, String reportedKey, String reporterKey, String roomId, long conversationId,
			String reason, Instant reportedAt, @Nullable Instant resolvedAt, @Nullable String resolution,
			@Nullable String note) {

		Row resolved(ReportResolution how, @Nullable String note, Instant at) {
			return new Row(this.id, this.reportedKey, this.reporterKey, this.roomId, this.conversationId, this.reason,
					this.reportedAt, at, how.name(), note);
		}

	}

	/**
	 * A room report as the moderators see it: sessions by their keys (the SHA-256, hex,
	 * of their tokens), never their tokens.
	 *
	 * @param sessionKey the reported session
	 * @param status {@code open} or {@code resolved}
	 * @param resolution {@code BAN} or {@code DISMISS} once resolved
	 * @param lastMessages what the reported session last wrote in that room, newest first
	 * (empty until room chat keeps messages)
	 */
	record RoomReport(long reportId, String sessionKey, String reporterSessionKey, String roomId, String reason,
			Instant createdAt, String status, @Nullable Instant resolvedAt, @Nullable String resolution,
			@Nullable String note, List<ReportedMessages.Message> lastMessages) {

	}

	record ReportPage(List<RoomReport> reports, @Nullable String nextCursor) {

	}

}
