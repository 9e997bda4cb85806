package io.kindling.matching.stats;

import java.util.List;

import io.kindling.matching.session.Session;
import io.swagger.v3.oas.annotations.Operation;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class QueueStatsController {

	private final QueueStats stats;

	QueueStatsController(QueueStats stats) {
		this.stats = stats;
	}

	/** From the snapshot the sweeper refreshes: no Redis call per request. */
	@GetMapping("/api/matching/queues")
	@Operation(summary = "List the queues' waiting figures",
			description = "Both queues (room sizes 2 and 3) of every active topic: how many wait, how long the "
					+ "oldest has waited, and the estimated wait of someone joining now. The figures come from "
					+ "a snapshot refreshed every few moments, so they may be slightly behind.")
	Queues queues(Session session) {
		return new Queues(this.stats.all());
	}

	record Queues(List<QueueStats.QueueFigures> queues) {

	}

}
