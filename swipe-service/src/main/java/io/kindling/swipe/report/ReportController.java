package io.kindling.swipe.report;

import io.kindling.swipe.security.CurrentUser;
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
	@ResponseStatus(HttpStatus.CREATED)
	Reports.Report report(@AuthenticationPrincipal Jwt jwt, @RequestBody ReportRequest request) {
		return this.reports.report(CurrentUser.id(jwt), request.userId(), request.reason(), request.details());
	}

	record ReportRequest(@Nullable Long userId, @Nullable String reason, @Nullable String details) {

	}

}
