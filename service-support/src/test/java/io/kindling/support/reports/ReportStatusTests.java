package io.kindling.support.reports;

import java.time.Instant;

import io.kindling.support.paging.Cursor;
import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ReportStatusTests {

	private static final Refusal BAD_CURSOR = () -> new Refusal.Type("bad-cursor", HttpStatus.BAD_REQUEST,
			"Bad cursor");

	private static final Instant REPORTED = Instant.parse("2026-12-01T10:00:00.123456Z");

	private static final Instant RESOLVED = Instant.parse("2026-12-02T11:00:00.654321Z");

	@Test
	void withoutACursorTheOpenListStartsAtItsOldestAndTheResolvedOneAtItsNewest() {
		assertThat(ReportStatus.OPEN.after(null, BAD_CURSOR)).isEqualTo(new Cursor(0, Instant.EPOCH, 0));
		assertThat(ReportStatus.RESOLVED.after(null, BAD_CURSOR)).isEqualTo(Cursor.startOf(1));
		assertThat(ReportStatus.RESOLVED.after("", BAD_CURSOR)).isEqualTo(Cursor.startOf(1));
	}

	@Test
	void theNextCursorOfAListIsAfterItsLastReportByTheTimeThatListIsOrderedOn() {
		assertThat(ReportStatus.OPEN.after(ReportStatus.OPEN.next(7, REPORTED, null), BAD_CURSOR))
			.isEqualTo(new Cursor(0, REPORTED, 7));
		assertThat(ReportStatus.RESOLVED.after(ReportStatus.RESOLVED.next(7, REPORTED, RESOLVED), BAD_CURSOR))
			.isEqualTo(new Cursor(1, RESOLVED, 7));
	}

	@Test
	void aCursorOfOneListIsRefusedOnTheOther() {
		String open = ReportStatus.OPEN.next(7, REPORTED, null);
		String resolved = ReportStatus.RESOLVED.next(7, REPORTED, RESOLVED);
		assertThatExceptionOfType(Refused.class).isThrownBy(() -> ReportStatus.RESOLVED.after(open, BAD_CURSOR))
			.satisfies((refused) -> assertThat(refused.refusal()).isSameAs(BAD_CURSOR));
		assertThatExceptionOfType(Refused.class).isThrownBy(() -> ReportStatus.OPEN.after(resolved, BAD_CURSOR));
		assertThatExceptionOfType(Refused.class).isThrownBy(() -> ReportStatus.OPEN.after("bogus!", BAD_CURSOR));
	}

}
