package io.kindling.matching.queue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * One join's entry in a queue. The join id tells this join from an earlier or later one
 * of the same token, so that a claim is only ever moved for the join it belongs to; it
 * also carries the address the join came from, so that forming can ask the ban list about
 * an entry it pops without another read, and, for a join of several topics, those topics:
 * the same entry waits in each of their queues, and whichever queue pops it can put its
 * claim back whole.
 *
 * @param token the session token
 * @param joinId random, one per join: {@code <random>.<address>}, both URL-safe base64,
 * then {@code .<topic id>-<topic id>...} when the join named several topics or opted in
 * to the fallback to anyone, then {@code .<seconds>} of that fallback
 * @param since when the join began waiting (the entry's score, but in a fallback queue,
 * where the score is when the entry becomes eligible there)
 */
public record QueueEntry(String token, String joinId, Instant since) {

	private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

	/**
	 * A new join's id: 64 random bits, then the joiner's address, then its topics when it
	 * named several. No part holds a colon, which ends the token in a member, nor a dot,
	 * which parts them.
	 */
	public static String newJoinId(String address, List<Long> topicIds) {
		return newJoinId(address, topicIds, Optional.empty());
	}

	/**
	 * As {@link #newJoinId(String, List)}, for a join that opted in to the fallback to
	 * anyone after this wait: its id names its topics (even one) and the wait, so that
	 * whichever queue pops it knows both.
	 */
	public static String newJoinId(String address, List<Long> topicIds, Optional<Duration> fallbackAfter) {
		byte[] random = new byte[8];
		ThreadLocalRandom.current().nextBytes(random);
		String id = BASE64.encodeToString(random) + "."
				+ BASE64.encodeToString(address.getBytes(StandardCharsets.UTF_8));
		String topics = topicIds.stream().map(String::valueOf).collect(Collectors.joining("-"));
		if (fallbackAfter.isPresent()) {
			return id + "." + topics + "." + fallbackAfter.get().toSeconds();
		}
		return (topicIds.size() > 1) ? id + "." + topics : id;
	}

	/** A join of one topic's id. */
	public static String newJoinId(String address) {
		return newJoinId(address, List.of());
	}

	/** The queue's member: {@code <token>:<join id>} (a token has no colon). */
	public String member() {
		return this.token + ":" + this.joinId;
	}

	/**
	 * The address the join came from, as its id carries it; empty for an id that carries
	 * none.
	 */
	public String address() {
		String[] parts = this.joinId.split("\\.");
		if (parts.length < 2) {
			return "";
		}
		try {
			return new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			// not an id this service wrote
			return "";
		}
	}

	/**
	 * The topics the join named when it named several, as its id carries them, first
	 * named first; empty for a join of one topic.
	 */
	public List<Long> topicIds() {
		return topicIdsOf(this.joinId);
	}

	/**
	 * How long the join waits before it may also be matched with anyone else who opted
	 * in, when it opted in.
	 */
	public Optional<Duration> fallbackAfter() {
		return fallbackAfterOf(this.joinId);
	}

	static Optional<Duration> fallbackAfterOf(String joinId) {
		String[] parts = joinId.split("\\.");
		if (parts.length < 4) {
			return Optional.empty();
		}
		try {
			return Optional.of(Duration.ofSeconds(Long.parseLong(parts[3])));
		}
		catch (NumberFormatException ex) {
			// not an id this service wrote
			return Optional.empty();
		}
	}

	/**
	 * The entry's score in this queue: when it began waiting, and in a fallback queue
	 * when it becomes eligible there (its fallback wait later).
	 */
	public long scoreIn(MatchQueue queue) {
		long since = this.since.toEpochMilli();
		return queue.isAnyTopic() ? since + fallbackAfter().map(Duration::toMillis).orElse(0L) : since;
	}

	static List<Long> topicIdsOf(String joinId) {
		String[] parts = joinId.split("\\.");
		if (parts.length < 3) {
			return List.of();
		}
		try {
			return Arrays.stream(parts[2].split("-")).map(Long::valueOf).toList();
		}
		catch (NumberFormatException ex) {
			// not an id this service wrote
			return List.of();
		}
	}

	/**
	 * The waiting claim this entry belongs to, as the queue it was popped from or read in
	 * tells it: the claim names its join's first topic, and its other topics by its id.
	 */
	public TokenState.Waiting waiting(MatchQueue queue) {
		List<Long> topicIds = topicIds();
		long first = topicIds.isEmpty() ? queue.topicId() : topicIds.get(0);
		return new TokenState.Waiting(new MatchQueue(first, queue.size()), this.since, this.joinId);
	}

	static QueueEntry parse(String member, String score) {
		int colon = member.lastIndexOf(':');
		return new QueueEntry(member.substring(0, colon), member.substring(colon + 1),
				Instant.ofEpochMilli((long) Double.parseDouble(score)));
	}

	/** An entry as read from this queue, its score undone as {@link #scoreIn} made it. */
	static QueueEntry parse(String member, String score, MatchQueue queue) {
		QueueEntry entry = parse(member, score);
		if (!queue.isAnyTopic()) {
			return entry;
		}
		Duration eligibleAfter = entry.fallbackAfter().orElse(Duration.ZERO);
		return new QueueEntry(entry.token(), entry.joinId(), entry.since().minus(eligibleAfter));
	}

}
