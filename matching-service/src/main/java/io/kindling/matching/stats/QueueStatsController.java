package io.kindling.matching.stats;

import java.util.List;

import io.kindling.matching.session.Session;

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
	Queues queues(Session session) {
		return new Queues(this.stats.all());
	}

	record Queues(List<QueueStats.QueueFigures> queues) {

	}

}
