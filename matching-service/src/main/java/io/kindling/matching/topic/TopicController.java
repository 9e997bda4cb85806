package io.kindling.matching.topic;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class TopicController {

	private final TopicCatalogue topics;

	TopicController(TopicCatalogue topics) {
		this.topics = topics;
	}

	@GetMapping("/api/topics")
	@Operation(summary = "List the active topics", description = "The topics one can join now. Needs no session.")
	Topics list() {
		return new Topics(this.topics.activeTopics());
	}

	record Topics(List<Topic> topics) {

	}

}
