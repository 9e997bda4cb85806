package io.kindling.matching.topic;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class TopicController {

	private final TopicCatalogue topics;

	TopicController(TopicCatalogue topics) {
		this.topics = topics;
	}

	@GetMapping("/api/topics")
	Topics list() {
		return new Topics(this.topics.activeTopics());
	}

	record Topics(List<Topic> topics) {

	}

}
