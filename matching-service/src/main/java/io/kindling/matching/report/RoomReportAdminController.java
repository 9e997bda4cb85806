package io.kindling.matching.report;

import java.util.Locale;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.kindling.support.reports.ReportResolution;
import io.kindling.support.reports.ReportStatus;
import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/admin/reports}: the moderators' queue of room reports, behind the admin
 * token, in the shape of swipe-service's.
 */
@RestController
@Validated
class RoomReportAdminController {

	private final RoomReportQueue queue;

	RoomReportAdminController(RoomReportQueue queue) {
		this.queue = queue;
	}

	@GetMapping("/api/admin/reports")
	@Operation(summary = "List room reports for moderation",
			description = "Open reports oldest first (`status=open`, the default), or resolved ones most recently "
					+ "resolved first (`status=resolved`), `limit` (1 to 100) at a time. Each names the reported "
					+ "session and the reporter by their keys (the SHA-256, hex, of their tokens), the room, the "
					+ "reason, and `last_messages`, what the reported session last wrote in that room (empty "
					+ "while rooms keep no chat). Pass `next_cursor` back as `cursor` for the next page of the "
					+ "same list; a cursor that cannot be read, or one of the other list, is 400 `bad-cursor`.")
	@Refuses("bad-cursor")
	RoomReportQueue.ReportPage list(
			@Parameter(schema = @Schema(allowableValues = { "open", "resolved" })) @RequestParam(
					defaultValue = "open") @Pattern(regexp = "open|resolved") String status,
			@RequestParam(required = false) @Nullable String cursor, @RequestParam(defaultValue = ""
					+ RoomReportQueue.PAGE_SIZE) @Min(1) @Max(RoomReportQueue.MAX_PAGE_SIZE) int limit) {
		return this.queue.page(ReportStatus.valueOf(status.toUpperCase(Locale.ROOT)), cursor, limit);
	}

	@PostMapping("/api/admin/reports/{reportId}/resolution")
	@Operation(summary = "Resolve a room report",
			description = "`BAN` bans the reported session with no end (as a `SESSION` ban of `POST "
					+ "/api/admin/bans`, unless one is in force already; a waiting session leaves its queue) and "
					+ "resolves every other open report about it; `DISMISS` resolves this one. `note` (at most "
					+ "1,000 characters) is kept with the resolution. 200 with the resolved report; 404 "
					+ "`no-such-report` for an unknown id, 409 `report-resolved` when it was resolved already.")
	@Refuses({ "no-such-report", "report-resolved" })
	RoomReportQueue.RoomReport resolve(@PathVariable long reportId, @Valid @RequestBody ResolutionRequest request) {
		return this.queue.resolve(reportId, request.action(), request.note());
	}

	record ResolutionRequest(@NotNull ReportResolution action,
			@Nullable @Size(max = RoomReportQueue.MAX_NOTE) String note) {

	}

}
