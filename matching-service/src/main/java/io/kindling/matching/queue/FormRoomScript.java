package io.kindling.matching.queue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import io.kindling.matching.MatchingProperties;
import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * {@code scripts/form_room.lua}: drops timed-out entries and pops at most one room; and
 * the queue half of a join, {@code scripts/enqueue.lua} followed by the same forming in
 * one script. Both touch only the queue's slot.
 */
@Component
public class FormRoomScript {

	/**
	 * Bounds one call's work when many entries time out at once (e.g. after an outage).
	 */
	private static final int MOST_DROPPED_PER_CALL = 500;

	/**
	 * How many of the oldest entries forming looks at when the oldest cannot form a room
	 * without recent partners: it keeps a call's cost flat with the queue's length.
	 */
	public static final int REMATCH_WINDOW = 64;

	private final LuaScript<List> form = LuaScript.load("form_room", List.class);

	private final LuaScript<List> join = LuaScript.chain("join", List.class, "enqueue", "form_room");

	private final LuaScript<String> find = LuaScript.load("find_entry", String.class);

	private final LuaScript<Long> enqueue = LuaScript.load("enqueue", Long.class);

	private final StringRedisTemplate redis;

	private final MatchingProperties properties;

	FormRoomScript(StringRedisTemplate redis, MatchingProperties properties) {
		this.redis = redis;
		this.properties = properties;
	}

	/**
	 * Forms at most one room.
	 * @param lookFor an entry whose place to report, if any
	 */
	public Result form(MatchQueue queue, Instant now, Optional<QueueEntry> lookFor) {
		return result(this.form.run(this.redis, keys(queue),
				args(queue, now, lookFor.map(QueueEntry::member).orElse(""), "")), queue, now);
	}

	/**
	 * Puts the joiner's entry in the queue (its claim is already held) and tries to form
	 * a room, in one atomic call: nobody else can pop the entry between the two. The room
	 * formed, if any, holds the oldest in the queue, which may or may not include the
	 * joiner.
	 */
	public Result join(MatchQueue queue, QueueEntry entry, Instant now) {
		return join(queue, entry, "", now);
	}

	/**
	 * As {@link #join(MatchQueue, QueueEntry, Instant)}, the entry carrying the joiner's
	 * recent partners ({@code <id>:<until ms>,...}, as the claim gave them).
	 */
	public Result join(MatchQueue queue, QueueEntry entry, String recentPartners, Instant now) {
		List<String> keys = new ArrayList<>(keys(queue));
		keys.add(queue.statsKey());
		return result(this.join.run(this.redis, keys, args(queue, entry.since(), entry.member(), recentPartners)),
				queue, now);
	}

	/**
	 * Puts a join's entry in its fallback queue, scored with when it becomes eligible
	 * there ({@code scripts/enqueue.lua} alone: nobody can be taken there before that, so
	 * there is nothing to form yet).
	 */
	public void enqueue(MatchQueue queue, QueueEntry entry, String recentPartners) {
		List<String> keys = new ArrayList<>(keys(queue));
		keys.add(queue.statsKey());
		String[] args = args(queue, entry.since(), entry.member(), recentPartners);
		args[1] = String.valueOf(entry.scoreIn(queue));
		this.enqueue.run(this.redis, keys, args);
	}

	/** The SHA of the join's script, as Redis caches it. */
	public String joinSha1() {
		return this.join.sha1();
	}

	/**
	 * Where an entry is ({@code scripts/find_entry.lua}), changing nothing in the queue.
	 */
	public Place find(MatchQueue queue, QueueEntry entry, Instant now) {
		String place = this.find.run(this.redis, List.of(queue.key(), queue.poppedKey()), entry.member(),
				String.valueOf(now.toEpochMilli() - this.properties.roomPendingTtl().toMillis()));
		return Place.valueOf(String.valueOf(place).toUpperCase(Locale.ROOT));
	}

	private static List<String> keys(MatchQueue queue) {
		return List.of(queue.key(), queue.poppedKey(), queue.entryPartnersKey());
	}

	private String[] args(MatchQueue queue, Instant now, String lookFor, String recentPartners) {
		long nowMillis = now.toEpochMilli();
		// with no cooldown nobody has recent partners, and no room is ever a rematch; in
		// a
		// fallback queue only those past their own fallback wait (scored so) are taken
		return new String[] { String.valueOf(queue.size()), String.valueOf(nowMillis),
				String.valueOf(nowMillis - this.properties.waitTimeout().toMillis()),
				String.valueOf(nowMillis - this.properties.fallbackAfter().toMillis()),
				String.valueOf(nowMillis - this.properties.roomPendingTtl().toMillis()),
				String.valueOf(MOST_DROPPED_PER_CALL), lookFor, String.valueOf(REMATCH_WINDOW),
				String.valueOf(nowMillis - this.properties.rematchAfter().toMillis()), recentPartners,
				queue.isAnyTopic() ? String.valueOf(nowMillis) : "+inf" };
	}

	private static Result result(List<?> answer, MatchQueue queue, Instant now) {
		int stillWaiting = Integer.parseInt(String.valueOf(answer.get(0)));
		boolean fallback = "1".equals(String.valueOf(answer.get(1)));
		Place place = Place.valueOf(String.valueOf(answer.get(2)).toUpperCase(Locale.ROOT));
		boolean rematch = "1".equals(String.valueOf(answer.get(3)));
		int timedOutCount = Integer.parseInt(String.valueOf(answer.get(4)));
		int poppedFrom = 5 + 2 * timedOutCount;
		List<QueueEntry> timedOut = new ArrayList<>(timedOutCount);
		for (int i = 5; i + 1 < poppedFrom; i += 2) {
			// a party's entry times out for both its people
			timedOut.addAll(
					QueueEntry.parse(String.valueOf(answer.get(i)), String.valueOf(answer.get(i + 1)), queue).people());
		}
		List<QueueEntry> popped = new ArrayList<>(3);
		Map<String, String> partnerLists = new HashMap<>();
		for (int i = poppedFrom; i + 2 < answer.size(); i += 3) {
			QueueEntry entry = QueueEntry.parse(String.valueOf(answer.get(i)), String.valueOf(answer.get(i + 1)),
					queue);
			// a party's one entry seats both its people, side by side
			popped.addAll(entry.people());
			String partners = String.valueOf(answer.get(i + 2));
			if (!partners.isEmpty()) {
				partnerLists.put(entry.member(), partners);
			}
		}
		Optional<PoppedRoom> room = popped.isEmpty() ? Optional.empty()
				: Optional.of(new PoppedRoom(UUID.randomUUID().toString(), queue, fallback, now, popped, partnerLists));
		return new Result(stillWaiting, timedOut, place, room, rematch);
	}

	/** Where an entry looked for is after the call. */
	public enum Place {

		/** Still waiting in the queue. */
		QUEUED,

		/** Popped into a room whose claims are being moved. */
		POPPED,

		/** Neither: it left, timed out, or its queue lost it. */
		NONE

	}

	/**
	 * @param stillWaiting how many are left in the queue
	 * @param timedOut the entries dropped for waiting past the timeout
	 * @param place where the entry looked for is (none when none was looked for)
	 * @param room the room popped, if one formed
	 * @param rematch true when that room puts recent partners together (nobody else in
	 * the queue could form one)
	 */
	public record Result(int stillWaiting, List<QueueEntry> timedOut, Place place, Optional<PoppedRoom> room,
			boolean rematch) {

	}

}
