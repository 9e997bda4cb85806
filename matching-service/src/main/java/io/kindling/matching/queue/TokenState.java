package io.kindling.matching.queue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a session token is, as its one claim in Redis says: nowhere, in a queue, in a
 * room being written, or in a room. The claim is a hash; {@link #fields()} writes it and
 * {@link #parse} reads it back.
 */
public sealed interface TokenState {

	String JOIN = "join";

	String ROOM_ID = "room_id";

	/** Set (to 1) in the claim of a room formed in a fallback queue. */
	String FALLBACK = "fallback";

	/** Set (to 1) in the claim of a newcomer seated in a room that lost someone. */
	String BACKFILLED = "backfilled";

	/** The claim's fields (none for idle). */
	Map<String, String> fields();

	/**
	 * The field that names this claim for a compare-and-set: a waiting claim's join id, a
	 * room claim's room id.
	 */
	String identityField();

	String identity();

	record Idle() implements TokenState {

		@Override
		public Map<String, String> fields() {
			return Map.of();
		}

		@Override
		public String identityField() {
			return JOIN;
		}

		@Override
		public String identity() {
			return "";
		}

	}

	/**
	 * In a queue since {@code since}, by the join {@code joinId}; {@code queue} is the
	 * queue of the join's first topic, and a join of several topics waits in the queue of
	 * each, as its join id names them.
	 */
	record Waiting(MatchQueue queue, Instant since, String joinId) implements TokenState {

		public QueueEntry entry(String token) {
			return new QueueEntry(token, this.joinId, this.since);
		}

		/** Every queue the join waits in, its first topic's first. */
		public List<MatchQueue> queues() {
			List<Long> topicIds = QueueEntry.topicIdsOf(this.joinId);
			return topicIds.isEmpty() ? List.of(this.queue)
					: topicIds.stream().map((topicId) -> new MatchQueue(topicId, this.queue.size())).toList();
		}

		/**
		 * The fallback queue of the join's size, when it opted in to the fallback to
		 * anyone.
		 */
		public Optional<MatchQueue> fallbackQueue() {
			return QueueEntry.fallbackAfterOf(this.joinId).map((after) -> MatchQueue.anyTopic(this.queue.size()));
		}

		/** Every queue the join waits in: its topics' queues, then its fallback queue. */
		public List<MatchQueue> allQueues() {
			Optional<MatchQueue> fallback = fallbackQueue();
			if (fallback.isEmpty()) {
				return queues();
			}
			List<MatchQueue> all = new ArrayList<>(queues());
			all.add(fallback.get());
			return List.copyOf(all);
		}

		/** The topics the join named, first named first. */
		public List<Long> topicIds() {
			return queues().stream().map(MatchQueue::topicId).toList();
		}

		@Override
		public Map<String, String> fields() {
			return ordered(JOIN, this.joinId, "topic_id", this.queue.topicId(), "size", this.queue.size(), "since",
					this.since.toEpochMilli());
		}

		@Override
		public String identityField() {
			return JOIN;
		}

		@Override
		public String identity() {
			return this.joinId;
		}

	}

	/**
	 * Popped into a room whose conversation is not written yet: it answers waiting.
	 * {@code queue} is the room's topic and size; {@code fallback} is true for a room
	 * formed in a fallback queue.
	 */
	record Forming(MatchQueue queue, Instant since, String roomId, int roomType, Instant matchedAt,
			boolean fallback) implements TokenState {

		public Forming(MatchQueue queue, Instant since, String roomId, int roomType, Instant matchedAt) {
			this(queue, since, roomId, roomType, matchedAt, false);
		}

		public Matched written(long conversationId) {
			return new Matched(this.roomId, conversationId, this.roomType, this.queue.topicId(), this.matchedAt,
					this.fallback, false);
		}

		@Override
		public Map<String, String> fields() {
			return withFallback(ordered(ROOM_ID, this.roomId, "topic_id", this.queue.topicId(), "size",
					this.queue.size(), "room_type", this.roomType, "since", this.since.toEpochMilli(), "matched_at",
					this.matchedAt.toEpochMilli()), this.fallback);
		}

		@Override
		public String identityField() {
			return ROOM_ID;
		}

		@Override
		public String identity() {
			return this.roomId;
		}

	}

	/**
	 * In a written room; {@code fallback} is true for a room formed in a fallback queue,
	 * {@code backfilled} for a newcomer seated in it after it formed, in the seat someone
	 * left.
	 */
	record Matched(String roomId, long conversationId, int roomType, long topicId, Instant matchedAt, boolean fallback,
			boolean backfilled) implements TokenState {

		public Matched(String roomId, long conversationId, int roomType, long topicId, Instant matchedAt) {
			this(roomId, conversationId, roomType, topicId, matchedAt, false, false);
		}

		@Override
		public Map<String, String> fields() {
			Map<String, String> fields = withFallback(
					ordered(ROOM_ID, this.roomId, "conversation_id", this.conversationId, "room_type", this.roomType,
							"topic_id", this.topicId, "matched_at", this.matchedAt.toEpochMilli()),
					this.fallback);
			if (this.backfilled) {
				fields.put(BACKFILLED, "1");
			}
			return fields;
		}

		@Override
		public String identityField() {
			return ROOM_ID;
		}

		@Override
		public String identity() {
			return this.roomId;
		}

	}

	/** The state a claim's fields describe; none is idle. */
	static TokenState parse(Map<String, String> fields) {
		if (fields.containsKey(JOIN)) {
			return new Waiting(queue(fields), millis(fields.get("since")), fields.get(JOIN));
		}
		if (!fields.containsKey(ROOM_ID)) {
			return new Idle();
		}
		String conversationId = fields.get("conversation_id");
		if (conversationId == null) {
			return new Forming(queue(fields), millis(fields.get("since")), fields.get(ROOM_ID),
					Integer.parseInt(fields.get("room_type")), millis(fields.get("matched_at")),
					fields.containsKey(FALLBACK));
		}
		return new Matched(fields.get(ROOM_ID), Long.parseLong(conversationId),
				Integer.parseInt(fields.get("room_type")), Long.parseLong(fields.get("topic_id")),
				millis(fields.get("matched_at")), fields.containsKey(FALLBACK), fields.containsKey(BACKFILLED));
	}

	private static MatchQueue queue(Map<String, String> fields) {
		return new MatchQueue(Long.parseLong(fields.get("topic_id")), Integer.parseInt(fields.get("size")));
	}

	private static Instant millis(String value) {
		return Instant.ofEpochMilli(Long.parseLong(value));
	}

	/** A room claim of a fallback room carries the field; any other has none. */
	private static Map<String, String> withFallback(Map<String, String> fields, boolean fallback) {
		if (fallback) {
			fields.put(FALLBACK, "1");
		}
		return fields;
	}

	private static Map<String, String> ordered(Object... pairs) {
		Map<String, String> fields = new LinkedHashMap<>();
		for (int i = 0; i + 1 < pairs.length; i += 2) {
			fields.put(String.valueOf(pairs[i]), String.valueOf(pairs[i + 1]));
		}
		return fields;
	}

}
