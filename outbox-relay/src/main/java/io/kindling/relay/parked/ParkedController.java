package io.kindling.relay.parked;

import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;

import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;

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
	@Operation(summary = "List parked outbox rows",
			description = "Events the relay stopped trying to publish after its maximum attempts, each with its "
					+ "source, type, key, attempts and last error; they no longer hold back their key's later "
					+ "events. At most `limit` (1 to 1000) of them.")
	Parked list(@RequestParam(defaultValue = "100") @Min(1) @Max(1000) int limit) {
		return new Parked(this.parkedRows.list(limit));
	}

	@PostMapping("/{id}/retry")
	@Operation(summary = "Retry a parked row",
			description = "Resets the row's attempts so that it is published with the relay's next batch (`status` "
					+ "is always `queued`). 404 `parked-row-not-found` when no parked row has this event id, "
					+ "400 when the id is not an event id.")
	@Refuses("parked-row-not-found")
	Retried retry(@PathVariable @Pattern(regexp = EVENT_ID) String id) {
		ParkedRow row = this.parkedRows.retry(id);
		return new Retried(row.id(), row.source(), "queued");
	}

	record Parked(List<ParkedRow> parked) {

	}

	/**
	 * @param status always {@code queued}: the relay publishes the row on its next pass
	 */
	record Retried(String id, String source, String status) {

	}

}
