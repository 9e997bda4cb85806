package io.kindling.swipe.moderation;

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
import io.kindling.swipe.moderation.ReportQueue.QueuePage;
import io.kindling.swipe.security.Operator;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/admin/reports}: the moderators' queue, behind the admin token. */
@RestController
class ReportQueueController {

	private final ReportQueue queue;

	ReportQueueController(ReportQueue queue) {
		this.queue = queue;
	}

	@GetMapping("/api/admin/reports")
	@Operation(summary = "List users' reports for moderation",
			description = "Open reports oldest first (`status=open`, the default), or resolved ones most recently "
					+ "resolved first (`status=resolved`), `limit` (1 to 100) at a time. Pass `next_cursor` back "
					+ "as `cursor` for the next page of the same list; it is null on the last one, and a cursor "
					+ "that cannot be read, or one of the other list, is 400 `bad-cursor`. Needs the admin token.")
	@Refuses("bad-cursor")
	QueuePage list(@AuthenticationPrincipal Operator operator,
			@Parameter(schema = @Schema(allowableValues = { "open", "resolved" })) @RequestParam(
					defaultValue = "open") @Pattern(regexp = "open|resolved") String status,
			@RequestParam(required = false) @Nullable String cursor, @RequestParam(
					defaultValue = "" + ReportQueue.PAGE_SIZE) @Min(1) @Max(ReportQueue.MAX_PAGE_SIZE) int limit) {
		return this.queue.page(operator, ReportStatus.valueOf(status.toUpperCase(Locale.ROOT)), cursor, limit);
	}

	@PostMapping("/api/admin/reports/{reportId}/resolution")
	@Operation(summary = "Resolve a report",
			description = "`BAN` bans the reported user with no end (as `POST /api/admin/user-bans` does, unless "
					+ "a ban of theirs is in force already) and resolves every other open report about them; "
					+ "`DISMISS` resolves this one. `note` (at most 1,000 characters) is kept with the "
					+ "resolution. 200 with the resolved report; 404 `no-such-report` for an unknown id, 409 "
					+ "`report-resolved` when it was resolved already. Needs the admin token.")
	@Refuses({ "no-such-report", "report-resolved" })
	ReportQueue.QueuedReport resolve(@AuthenticationPrincipal Operator operator, @PathVariable long reportId,
			@Valid @RequestBody ResolutionRequest request) {
		return this.queue.resolve(operator, reportId, request.action(), request.note());
	}

	record ResolutionRequest(@NotNull ReportResolution action,
			@Nullable @Size(max = ReportQueue.MAX_NOTE) String note) {

	}

}
