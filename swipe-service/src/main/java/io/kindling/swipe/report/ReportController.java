package io.kindling.swipe.report;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.security.CurrentUser;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ReportController {

	private final Reports reports;

	ReportController(Reports reports) {
		this.reports = reports;
	}

	@PostMapping("/api/reports")
	@Operation(summary = "Report someone",
			description = "Files a report for the moderators, with a `reason` from a fixed list and optional "
					+ "`details` (at most 1,000 characters), and blocks the person as `POST /api/blocks` does. "
					+ "Every report is kept, a second one about the same person too. 422 `unknown-target` when "
					+ "they have no profile or they blocked the caller first (nothing is written).")
	@Refuses({ "bad-report", "unknown-target" })
	@ResponseStatus(HttpStatus.CREATED)
	Reports.Report report(@AuthenticationPrincipal Jwt jwt, @RequestBody ReportRequest request) {
		return this.reports.report(CurrentUser.id(jwt), request.userId(), request.reason(), request.details());
	}

	record ReportRequest(@Nullable Long userId, @Nullable String reason, @Nullable String details) {

	}

}
