package io.kindling.matching.report;

import jakarta.validation.Valid;

import io.kindling.matching.session.Session;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ReportController {

	private final ReportService reports;

	ReportController(ReportService reports) {
		this.reports = reports;
	}

	/** 201 for a new report, 200 when this session reported that room's others before. */
	@PostMapping("/api/matching/reports")
	ResponseEntity<ReportService.Reported> report(Session session, @Valid @RequestBody ReportRequest request) {
		ReportService.Reported reported = this.reports.report(session, request.reason());
		return ResponseEntity.status(reported.repeated() ? HttpStatus.OK : HttpStatus.CREATED).body(reported);
	}

}
