package io.kindling.swipe.report;

import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import io.kindling.outbox.SqlTime;
import io.kindling.support.web.Refused;
import io.kindling.swipe.block.BlockRefusals;
import io.kindling.swipe.block.Blocks;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Service;

/**
 * Reports, kept in {@code user_reports} for moderation. A report also blocks the reported
 * user, in the same transaction: whoever reports someone never sees them again, and their
 * match ends.
 */
@Service
class Reports {

	static final int MAX_DETAILS = 1000;

	private final Blocks blocks;

	private final JdbcClient jdbc;

	Reports(Blocks blocks, JdbcClient jdbc) {
		this.blocks = blocks;
		this.jdbc = jdbc;
	}

	record Report(long reportId, long userId, String reason, Instant createdAt) {

	}

	Report report(long reporterId, @Nullable Long reportedId, @Nullable String reasonName, @Nullable String details) {
		ReportReason reason = reason(reasonName);
		if (details != null && details.length() > MAX_DETAILS) {
			throw ReportRefusals.BAD_REPORT.refused("details is at most " + MAX_DETAILS + " characters.");
		}
		if (reportedId == null || reportedId <= 0) {
			throw ReportRefusals.BAD_REPORT.refused("user_id must be a user id.");
		}
		if (reportedId == reporterId) {
			throw ReportRefusals.BAD_REPORT.refused("You cannot report yourself.");
		}
		String text = (details == null || details.isBlank()) ? null : details.strip();
		AtomicReference<Report> report = new AtomicReference<>();
		try {
			this.blocks.block(reporterId, reportedId, (now) -> report
				.set(new Report(insert(reporterId, reportedId, reason, text, now), reportedId, reason.name(), now)));
		}
		catch (Refused ex) {
			if (ex.refusal() != BlockRefusals.BAD_BLOCK) {
				throw ex;
			}
			throw ReportRefusals.BAD_REPORT.refused(ex.getMessage());
		}
		return Objects.requireNonNull(report.get());
	}

	private long insert(long reporterId, long reportedId, ReportReason reason, @Nullable String details, Instant now) {
		KeyHolder key = new GeneratedKeyHolder();
		this.jdbc.sql("""
				INSERT INTO user_reports (reporter_id, reported_user_id, reason, details, created_at)
				VALUES (:reporter, :reported, :reason, :details, FROM_UNIXTIME(:now))
				""")
			.param("reporter", reporterId)
			.param("reported", reportedId)
			.param("reason", reason.name())
			.param("details", details, java.sql.Types.VARCHAR)
			.param("now", SqlTime.epochSeconds(now))
			.update(key, "report_id");
		return Objects.requireNonNull(key.getKey(), "the driver returned no report_id").longValue();
	}

	private static ReportReason reason(@Nullable String name) {
		if (name != null) {
			try {
				return ReportReason.valueOf(name.toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				// falls through to the refusal
			}
		}
		throw ReportRefusals.BAD_REPORT
			.refused("reason must be one of " + Arrays.toString(ReportReason.values()) + ".");
	}

}
