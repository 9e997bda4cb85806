package io.kindling.relay.parked;

import java.util.List;
import java.util.Map;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Parked rows, for an operator holding the admin token. */
@RestController
@RequestMapping("/api/outbox/parked")
@Validated
class ParkedController {

	private static final String EVENT_ID = "[0-9a-fA-F-]{36}";

	private final ParkedRows parkedRows;

	ParkedController(ParkedRows parkedRows) {
		this.parkedRows = parkedRows;
	}

	@GetMapping
	Map<String, List<ParkedRow>> list(@RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
		return Map.of("parked", this.parkedRows.list(limit));
	}

	@PostMapping("/{id}/retry")
	Map<String, Object> retry(@PathVariable @Pattern(regexp = EVENT_ID) String id) {
		ParkedRow row = this.parkedRows.retry(id);
		return Map.of("id", row.id(), "source", row.source(), "status", "queued");
	}

}
