package io.kindling.matching.join;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;

import io.kindling.matching.room.JoinRefusals;
import org.jspecify.annotations.Nullable;

/**
 * {@code POST /api/matching}: the topic, or the topics (interests: a room with anyone who
 * shares one of them), the room size to wait for, and optionally after how many seconds
 * of waiting it may also be matched with anyone else who opted in, whatever the topic;
 * with {@code party_id}, the creator of a party of two joins for both.
 */
record JoinRequest(@Nullable @Positive Long topicId, @Nullable List<@NotNull @Positive Long> topicIds,
		@NotNull @Min(value = 2, message = "must be 2 or 3") @Max(value = 3, message = "must be 2 or 3") Integer size,
		@Nullable @Min(value = 10, message = "must be 10 to 300") @Max(value = 300,
				message = "must be 10 to 300") Integer fallbackAfterS,
		@Nullable @Size(max = 64) String partyId) {

	/** The wait after which the join may also be matched with anyone, if it opted in. */
	Optional<Duration> fallbackAfter() {
		return Optional.ofNullable(this.fallbackAfterS).map(Duration::ofSeconds);
	}

	/** The most topics one join may name. */
	static final int MAX_TOPICS = 5;

	/**
	 * The topics to wait in, first named first.
	 * @throws io.kindling.support.web.Refused {@code topics-invalid}: neither or both of
	 * {@code topic_id} and {@code topic_ids}, or a list that is empty, longer than five
	 * or names a topic twice
	 */
	List<Long> topics() {
		if ((this.topicId == null) == (this.topicIds == null)) {
			throw JoinRefusals.TOPICS_INVALID.refused("name either topic_id or topic_ids, not both and not neither");
		}
		if (this.topicId != null) {
			return List.of(this.topicId);
		}
		List<Long> topics = this.topicIds;
		if (topics.isEmpty() || topics.size() > MAX_TOPICS) {
			throw JoinRefusals.TOPICS_INVALID.refused("topic_ids names 1 to " + MAX_TOPICS + " topics");
		}
		if (new HashSet<>(topics).size() != topics.size()) {
			throw JoinRefusals.TOPICS_INVALID.refused("topic_ids names a topic twice");
		}
		return List.copyOf(topics);
	}

}
