package io.kindling.matching.room;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import org.springframework.stereotype.Component;

/**
 * Per queue: how many wait, rooms formed (by room size and fallback), time waited until a
 * room, timeouts, and conversation writes that failed.
 */
@Component
class RoomMetrics {

	private final MeterRegistry registry;

	private final Map<MatchQueue, AtomicLong> waiting = new ConcurrentHashMap<>();

	RoomMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	void waiting(MatchQueue queue, long count) {
		this.waiting.computeIfAbsent(queue, (key) -> {
			AtomicLong gauge = new AtomicLong();
			this.registry.gauge("kindling.matching.waiting", tags(key), gauge);
			return gauge;
		}).set(count);
	}

	void timedOut(MatchQueue queue, int count) {
		if (count > 0) {
			Counter.builder("kindling.matching.timeouts")
				.description("entries dropped for waiting past the wait timeout")
				.tags(tags(queue))
				.register(this.registry)
				.increment(count);
		}
	}

	void formed(PoppedRoom room) {
		Counter.builder("kindling.matching.rooms.formed")
			.tags(tags(room.queue()))
			.tag("room_type", String.valueOf(room.roomType()))
			.tag("fallback", String.valueOf(room.fallback()))
			.register(this.registry)
			.increment();
		Timer waited = Timer.builder("kindling.matching.wait")
			.description("time from joining a queue to being in a room")
			.tags(tags(room.queue()))
			.register(this.registry);
		for (QueueEntry participant : room.participants()) {
			waited.record(Duration.between(participant.since(), room.formedAt()));
		}
	}

	/**
	 * A popped room given up: its conversation refused, or a member's claim had moved.
	 */
	void undone(MatchQueue queue, String reason) {
		Counter.builder("kindling.matching.rooms.undone")
			.description("rooms popped and put back: refused by live seats, or a member had left")
			.tags(tags(queue))
			.tag("reason", reason)
			.register(this.registry)
			.increment();
	}

	/** A newcomer seated in a room of three, in the seat someone left. */
	void backfilled(MatchQueue queue) {
		Counter.builder("kindling.matching.rooms.backfilled")
			.description("newcomers seated in a room of three in the seat someone left soon after it formed")
			.tags(tags(queue))
			.register(this.registry)
			.increment();
	}

	/** A room of recent partners formed: nobody else in the queue could form one. */
	void rematched(MatchQueue queue) {
		Counter.builder("kindling.matching.rematches")
			.description("rooms that put recent partners together again because nobody else waiting could form one")
			.tags(tags(queue))
			.register(this.registry)
			.increment();
	}

	/** A waiting claim whose queue had lost its entry, set idle by a poll. */
	void repaired(MatchQueue queue) {
		Counter.builder("kindling.matching.claims.repaired")
			.description("waiting claims set idle because their queue no longer held them")
			.tags(tags(queue))
			.register(this.registry)
			.increment();
	}

	/** An idle token found in a live room in MySQL (its claim lost in a failover). */
	void recovered() {
		Counter.builder("kindling.matching.claims.recovered")
			.description("room claims restored from MySQL after Redis lost them")
			.register(this.registry)
			.increment();
	}

	void writeFailed(MatchQueue queue) {
		Counter.builder("kindling.matching.conversation.write.failures")
			.tags(tags(queue))
			.register(this.registry)
			.increment();
	}

	/** A fallback queue's topic tag is {@code any}. */
	private static Tags tags(MatchQueue queue) {
		return Tags.of("topic", queue.isAnyTopic() ? "any" : String.valueOf(queue.topicId()), "size",
				String.valueOf(queue.size()));
	}

}
