package io.kindling.matching.report;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;

import io.kindling.matching.session.Session;
import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

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
	@Operation(summary = "Report the others of the caller's room",
			description = "Reports the other people of the session's current or last room, with a `reason`. 201 for "
					+ "a new report; the same session reporting the same room again changes nothing and gets "
					+ "200 with the same body (the first reason stands). 404 `no-room` when the session never "
					+ "sat in a room. Reports of a session count once per reporter network (an IPv4 /24, an IPv6 "
					+ "/64): reporters from `reports-to-ban` networks ban it, and for a while its network.")
	@ApiResponse(responseCode = "201", description = "Reported", useReturnTypeSchema = true)
	@ApiResponse(responseCode = "200", description = "Reported before", useReturnTypeSchema = true)
	@Refuses("no-room")
	ResponseEntity<ReportService.Reported> report(Session session, @Valid @RequestBody ReportRequest request,
			HttpServletRequest http) {
		ReportService.Reported reported = this.reports.report(session, http.getRemoteAddr(), request.reason());
		return ResponseEntity.status(reported.repeated() ? HttpStatus.OK : HttpStatus.CREATED).body(reported);
	}

}
