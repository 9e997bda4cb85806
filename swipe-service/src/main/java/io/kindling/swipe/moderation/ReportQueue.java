package io.kindling.swipe.moderation;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

import io.kindling.outbox.SqlTime;
import io.kindling.support.paging.Cursor;
import io.kindling.support.reports.ReportResolution;
import io.kindling.support.reports.ReportStatus;
import io.kindling.swipe.moderation.AdminAudit.Action;
import io.kindling.swipe.paging.PagingRefusals;
import io.kindling.swipe.security.Operator;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The moderators' queue of users' reports ({@code user_reports}): open ones oldest first,
 * resolved ones most recently resolved first. A report is resolved once, by {@code BAN}
 * (the reported user is banned, and every other open report about them is resolved with
 * it) or {@code DISMISS}.
 */
@Service
class ReportQueue {

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	static final int MAX_NOTE = 1000;

	private static final String COLUMNS = """
			report_id, reported_user_id, reporter_id, reason, details, created_at,
			resolved_at, resolution, resolution_note, resolved_by""";

	private final JdbcClient jdbc;

	private final UserBans bans;

	private final AdminAudit audit;

	private final TransactionTemplate transactions;

	private final Clock clock;

	ReportQueue(JdbcClient jdbc, UserBans bans, AdminAudit audit, TransactionTemplate transactions, Clock clock) {
		this.jdbc = jdbc;
		this.bans = bans;
		this.audit = audit;
		this.transactions = transactions;
		this.clock = clock;
	}

	QueuePage page(Operator operator, ReportStatus status, @Nullable String cursor, int limit) {
		Cursor after = status.after(cursor, PagingRefusals.BAD_CURSOR);
		this.audit.record(operator, Action.REPORTS_LISTED, null, "status=" + status.name().toLowerCase());
		String list = switch (status) {
			case OPEN -> """
					SELECT %s FROM user_reports
					WHERE resolved_at IS NULL
					  AND (created_at > FROM_UNIXTIME(:at) OR (created_at = FROM_UNIXTIME(:at) AND report_id > :after))
					ORDER BY created_at, report_id
					LIMIT :fetch
					""";
			case RESOLVED ->
				"""
						SELECT %s FROM user_reports
						WHERE resolved_at IS NOT NULL
						  AND (resolved_at < FROM_UNIXTIME(:at) OR (resolved_at = FROM_UNIXTIME(:at) AND report_id < :after))
						ORDER BY resolved_at DESC, report_id DESC
						LIMIT :fetch
						""";
		};
		List<QueuedReport> rows = this.jdbc.sql(list.formatted(COLUMNS))
			.param("at", SqlTime.epochSeconds(after.at()))
			.param("after", after.id())
			.param("fetch", limit + 1)
			.query(ReportQueue::queued)
			.list();
		if (rows.size() <= limit) {
			return new QueuePage(rows, null);
		}
		List<QueuedReport> page = rows.subList(0, limit);
		QueuedReport last = page.get(limit - 1);
		return new QueuePage(List.copyOf(page), status.next(last.reportId(), last.createdAt(), last.resolvedAt()));
	}

	/**
	 * Resolves an open report; a {@code BAN} bans the reported user (unless a ban of
	 * theirs is in force already) and resolves every other open report about them with
	 * the same note, all in one transaction with the audit row.
	 */
	QueuedReport resolve(Operator operator, long reportId, ReportResolution resolution, @Nullable String note) {
		String text = (note == null || note.isBlank()) ? null : note.strip();
		Instant now = this.clock.instant().truncatedTo(ChronoUnit.MICROS);
		return Objects.requireNonNull(this.transactions.execute((tx) -> {
			QueuedReport report = this.jdbc
				.sql("SELECT " + COLUMNS + " FROM user_reports WHERE report_id = :id FOR UPDATE")
				.param("id", reportId)
				.query(ReportQueue::queued)
				.optional()
				.orElseThrow(() -> ModerationRefusals.NO_SUCH_REPORT.refused("No report has the id " + reportId + "."));
			if (report.resolvedAt() != null) {
				throw ModerationRefusals.REPORT_RESOLVED.refused("Report " + reportId + " was resolved already ("
						+ report.resolution() + " at " + report.resolvedAt() + ").");
			}
			String resolved = "UPDATE user_reports SET resolved_at = FROM_UNIXTIME(:now), resolution = :resolution,"
					+ " resolution_note = :note, resolved_by = :by WHERE ";
			if (resolution == ReportResolution.BAN) {
				this.bans.banIfNotBanned(operator, report.userId(),
						"report " + reportId + ": " + report.reason() + ((text != null) ? " (" + text + ")" : ""), null,
						reportId, now);
				resolved += "reported_user_id = :userId AND resolved_at IS NULL";
			}
			else {
				resolved += "report_id = :id";
			}
			this.jdbc.sql(resolved)
				.param("now", SqlTime.epochSeconds(now))
				.param("resolution", resolution.name())
				.param("note", text, java.sql.Types.VARCHAR)
				.param("by", operator.tokenId())
				.param("userId", report.userId())
				.param("id", reportId)
				.update();
			this.audit.record(operator, Action.REPORT_RESOLVED, "report:" + reportId,
					resolution.name() + " user:" + report.userId() + ((text != null) ? ": " + text : ""));
			return report.resolved(resolution, text, operator.tokenId(), now);
		}));
	}

	private static QueuedReport queued(ResultSet rs, int row) throws SQLException {
		Timestamp resolvedAt = rs.getTimestamp("resolved_at");
		return QueuedReport.of(rs.getLong("report_id"), rs.getLong("reported_user_id"), rs.getLong("reporter_id"),
				rs.getString("reason"), rs.getString("details"), rs.getTimestamp("created_at").toInstant(),
				(resolvedAt != null) ? resolvedAt.toInstant() : null, rs.getString("resolution"),
				rs.getString("resolution_note"), rs.getString("resolved_by"));
	}

	/**
	 * A report as the moderators see it.
	 *
	 * @param userId the reported user
	 * @param resolution {@code BAN} or {@code DISMISS} once resolved
	 * @param status {@code open} or {@code resolved}
	 * @param resolvedBy the id of the operators' token that resolved it
	 */
	record QueuedReport(long reportId, long userId, long reporterUserId, String reason, @Nullable String details,
			Instant createdAt, String status, @Nullable Instant resolvedAt, @Nullable String resolution,
			@Nullable String note, @Nullable String resolvedBy) {

		static QueuedReport of(long reportId, long userId, long reporterUserId, String reason, @Nullable String details,
				Instant createdAt, @Nullable Instant resolvedAt, @Nullable String resolution, @Nullable String note,
				@Nullable String resolvedBy) {
			return new QueuedReport(reportId, userId, reporterUserId, reason, details, createdAt,
					(resolvedAt == null) ? "open" : "resolved", resolvedAt, resolution, note, resolvedBy);
		}

		QueuedReport resolved(ReportResolution how, @Nullable String note, String by, Instant at) {
			return of(this.reportId, this.userId, this.reporterUserId, this.reason, this.details, this.createdAt, at,
					how.name(), note, by);
		}

	}

	record QueuePage(List<QueuedReport> reports, @Nullable String nextCursor) {

	}

}
