package io.kindling.matching.join;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.room.RoomFormed;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code GET /api/matching} (and of a {@code matched} push): idle, waiting or
 * matched, with only the fields of that status.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MatchingStatus(String status, @Nullable String roomId, @Nullable Long conversationId,
		@Nullable Integer roomType, @Nullable Long topicId, @Nullable Integer size, @Nullable Instant waitingSince,
		@Nullable Instant matchedAt) {

	static final String IDLE = "idle";

	static final String WAITING = "waiting";

	static final String MATCHED = "matched";

	@JsonIgnore
	public boolean isMatched() {
		return MATCHED.equals(this.status);
	}

	static MatchingStatus idle() {
		return new MatchingStatus(IDLE, null, null, null, null, null, null, null);
	}

	static MatchingStatus waiting(long topicId, int size, Instant since) {
		return new MatchingStatus(WAITING, null, null, null, topicId, size, since, null);
	}

	public static MatchingStatus matched(RoomFormed room) {
		return new MatchingStatus(MATCHED, room.roomId(), room.conversationId(), room.roomType(), room.topicId(), null,
				null, room.formedAt());
	}

	static MatchingStatus of(TokenState state) {
		return switch (state) {
			case TokenState.Idle idle -> idle();
			case TokenState.Waiting waiting ->
				waiting(waiting.queue().topicId(), waiting.queue().size(), waiting.since());
			// the conversation is not written yet, so there is nothing to enter
			case TokenState.Forming forming ->
				waiting(forming.queue().topicId(), forming.queue().size(), forming.since());
			case TokenState.Matched matched -> new MatchingStatus(MATCHED, matched.roomId(), matched.conversationId(),
					matched.roomType(), matched.topicId(), null, null, matched.matchedAt());
		};
	}

}
