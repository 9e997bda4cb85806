package io.kindling.matching.topic;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/admin/topics}, behind the admin token. */
@RestController
class TopicAdminController {

	/** A name shows as typed, but not with blanks around it or control characters. */
	private static final String NAME = "[^\\s\\p{Cntrl}]([^\\p{Cntrl}]*[^\\s\\p{Cntrl}])?";

	private final TopicAdmin topics;

	TopicAdminController(TopicAdmin topics) {
		this.topics = topics;
	}

	@PostMapping("/api/admin/topics")
	@Operation(summary = "Add a topic",
			description = "Adds an active topic (201). A name is 1 to 100 characters, without blanks around it or "
					+ "control characters; a name another topic has is 409 `topic-name-taken`.")
	@Refuses("topic-name-taken")
	@ResponseStatus(HttpStatus.CREATED)
	TopicAdmin.ManagedTopic add(@Valid @RequestBody NewTopic request) {
		return this.topics.add(request.name());
	}

	/** Renames, retires ({@code "active": false}) or brings back a topic. */
	@PatchMapping("/api/admin/topics/{id}")
	@Operation(summary = "Rename, retire or restore a topic",
			description = "Give `name`, `active` or both: renames the topic, retires it (`\"active\": false`) or "
					+ "brings it back. An unknown id is 404 `no-such-topic`, a name another topic has 409 "
					+ "`topic-name-taken`; topics are never deleted.")
	@Refuses({ "no-such-topic", "topic-name-taken" })
	TopicAdmin.ManagedTopic change(@PathVariable long id, @Valid @RequestBody TopicChange request) {
		return this.topics.change(id, request.name(), request.active());
	}

	@GetMapping("/api/admin/topics")
	@Operation(summary = "List every topic", description = "Every topic with its `active` flag, retired ones included.")
	ManagedTopics list() {
		return new ManagedTopics(this.topics.list());
	}

	record NewTopic(@NotNull @NotBlank @Size(max = 100) @Pattern(regexp = NAME,
			message = "must not start or end with blanks nor hold control characters") String name) {

	}

	record TopicChange(
			@Nullable @Size(min = 1, max = 100) @Pattern(regexp = NAME,
					message = "must not start or end with blanks nor hold control characters") String name,
			@Nullable Boolean active) {

		@AssertTrue(message = "give name, active or both")
		boolean isChanging() {
			return this.name != null || this.active != null;
		}

	}

	/** Not {@code Topics}: the public list's schema has that name. */
	record ManagedTopics(List<TopicAdmin.ManagedTopic> topics) {

	}

}
