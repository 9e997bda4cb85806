package io.kindling.matching.join;

import java.time.Instant;
import java.util.List;
import java.util.function.ToLongFunction;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.room.RoomBackfilled;
import io.kindling.matching.room.RoomFormed;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code GET /api/matching} (and of a {@code matched} push): idle, waiting or
 * matched, each with only its own fields; {@code status} names which.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "status")
@JsonSubTypes({ @JsonSubTypes.Type(value = MatchingStatus.Idle.class, name = "idle"),
		@JsonSubTypes.Type(value = MatchingStatus.Waiting.class, name = "waiting"),
		@JsonSubTypes.Type(value = MatchingStatus.Matched.class, name = "matched") })
public sealed interface MatchingStatus {

	record Idle() implements MatchingStatus {

	}

	/**
	 * @param topicId the topic named, or the first of those named
	 * @param topicIds every topic named, when the join named several (else the field is
	 * left out)
	 * @param estimatedWaitMs how long until a room is expected, from the queue stats
	 */
	record Waiting(long topicId, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<Long> topicIds, int size,
			Instant waitingSince, long estimatedWaitMs) implements MatchingStatus {

	}

	/**
	 * @param fallback true for a room formed by the fallback to anyone (its topic is that
	 * of whoever waited longest); left out otherwise
	 * @param backfilled true for a newcomer seated in a room of three that lost someone,
	 * in the seat they left (else the field is left out); {@code matched_at} is then when
	 * the newcomer was seated
	 */
	record Matched(String roomId, long conversationId, int roomType, long topicId, Instant matchedAt,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Boolean fallback,
			@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Boolean backfilled) implements MatchingStatus {

		public Matched(String roomId, long conversationId, int roomType, long topicId, Instant matchedAt) {
			this(roomId, conversationId, roomType, topicId, matchedAt, null, null);
		}

	}

	static Matched matched(RoomFormed room) {
		return new Matched(room.roomId(), room.conversationId(), room.roomType(), room.topicId(), room.formedAt(),
				fallback(room.fallback()), room.backfilled() ? Boolean.TRUE : null);
	}

	/** A fallback room says so; any other leaves the field out. */
	private static @Nullable Boolean fallback(boolean fallback) {
		return fallback ? Boolean.TRUE : null;
	}

	/** The newcomer's status, as its join answers and its stream is told. */
	public static Matched matched(RoomBackfilled seated) {
		return new Matched(seated.roomId(), seated.conversationId(), seated.roomType(), seated.topicId(), seated.at(),
				null, Boolean.TRUE);
	}

	static MatchingStatus of(TokenState state, ToLongFunction<TokenState.Waiting> estimatedWaitMs) {
		return switch (state) {
			case TokenState.Idle idle -> new Idle();
			case TokenState.Waiting waiting ->
				new Waiting(waiting.queue().topicId(), (waiting.queues().size() > 1) ? waiting.topicIds() : null,
						waiting.queue().size(), waiting.since(), estimatedWaitMs.applyAsLong(waiting));
			// the conversation is not written yet, so there is nothing to enter; its room
			// is as good as there
			case TokenState.Forming forming ->
				new Waiting(forming.queue().topicId(), null, forming.queue().size(), forming.since(), 0);
			case TokenState.Matched matched ->
				new Matched(matched.roomId(), matched.conversationId(), matched.roomType(), matched.topicId(),
						matched.matchedAt(), fallback(matched.fallback()), matched.backfilled() ? Boolean.TRUE : null);
		};
	}

}
