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
 * claim back whole. A party's join (two sessions waiting as one ticket) also names both
 * tokens and the second one's address: its one entry, under the creator's token, stands
 * for both, and each one's claim names the same join. A join that opted in to the
 * fallback to anyone names its wait, in a field of its own.
 *
 * @param token the session token
 * @param joinId random, one per join: {@code <random>.<address>}, both URL-safe base64,
 * then {@code .<topic id>-<topic id>...} when the join named several topics, is a party's
 * or opted in to the fallback; then a party's
 * {@code .<creator token>~<partner token>.<partner
 * address>}; then {@code .f=<seconds>} of the fallback. Each part tells itself apart: the
 * topics are digits, only the party's tokens hold a {@code ~}, only the fallback's part
 * an {@code =} (neither base64 without padding nor a token has one)
 * @param since when the join began waiting (the entry's score, but in a fallback queue,
 * where the score is when the entry becomes eligible there)
 */
public record QueueEntry(String token, String joinId, Instant since) {

	private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

	/** Opens the fallback's part of a join id. */
	static final String FALLBACK_TAG = "f=";

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
		return newJoinId(address, topicIds, Optional.empty(), fallbackAfter);
	}

	/**
	 * A party's join id: as a join's (its topics always named, even one), then
	 * {@code .<creator token>~<partner token>.<partner address>}. Both claims name it,
	 * and the queue's one entry is the creator's.
	 */
	public static String newPartyJoinId(String address, List<Long> topicIds, String creator, String partner,
			String partnerAddress) {
		return newJoinId(address, topicIds, Optional.of(new Party(creator, partner, partnerAddress)), Optional.empty());
	}

	/** A join id with every part this join has (see {@link QueueEntry}). */
	static String newJoinId(String address, List<Long> topicIds, Optional<Party> party,
			Optional<Duration> fallbackAfter) {
		byte[] random = new byte[8];
		ThreadLocalRandom.current().nextBytes(random);
		StringBuilder id = new StringBuilder(BASE64.encodeToString(random)).append('.').append(encoded(address));
		if (topicIds.size() > 1 || party.isPresent() || fallbackAfter.isPresent()) {
			id.append('.').append(topicIds.stream().map(String::valueOf).collect(Collectors.joining("-")));
		}
		party.ifPresent((p) -> id.append('.')
			.append(p.creator())
			.append(PARTY_SEPARATOR)
			.append(p.partner())
			.append('.')
			.append(encoded(p.partnerAddress())));
		fallbackAfter.ifPresent((after) -> id.append('.').append(FALLBACK_TAG).append(after.toSeconds()));
		return id.toString();
	}

	private static String encoded(String text) {
		return BASE64.encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}

	/** Between the two tokens of a party's join id: in neither a token nor base64. */
	static final String PARTY_SEPARATOR = "~";

	/**
	 * The two sessions of a party's join, as its id names them.
	 *
	 * @param creator the token whose entry waits in the queue
	 * @param partner the second member's token
	 * @param partnerAddress the address the second member joined the party from
	 */
	public record Party(String creator, String partner, String partnerAddress) {

	}

	/** The party this join is, if it is one. */
	public Optional<Party> party() {
		return partyOf(this.joinId);
	}

	static Optional<Party> partyOf(String joinId) {
		String[] parts = joinId.split("\\.");
		if (parts.length < 5) {
			return Optional.empty();
		}
		String[] tokens = parts[3].split(PARTY_SEPARATOR);
		if (tokens.length != 2 || parts[4].startsWith(FALLBACK_TAG)) {
			return Optional.empty();
		}
		return Optional.of(new Party(tokens[0], tokens[1], decoded(parts[4])));
	}

	/**
	 * The people this entry stands for: itself, or for a party's entry both members, each
	 * with its own token and the same join (and so the same member in the queue).
	 */
	public List<QueueEntry> people() {
		return party().map((party) -> List.of(new QueueEntry(party.creator(), this.joinId, this.since),
				new QueueEntry(party.partner(), this.joinId, this.since)))
			.orElse(List.of(this));
	}

	/** A join of one topic's id. */
	public static String newJoinId(String address) {
		return newJoinId(address, List.of());
	}

	/**
	 * The queue's member: {@code <token>:<join id>} (a token has no colon); a party's
	 * entry is its creator's, whichever member asks.
	 */
	public String member() {
		return party().map(Party::creator).orElse(this.token) + ":" + this.joinId;
	}

	/**
	 * The address the join came from, as its id carries it; empty for an id that carries
	 * none.
	 */
	public String address() {
		Optional<Party> party = party();
		if (party.isPresent() && party.get().partner().equals(this.token)) {
			return party.get().partnerAddress();
		}
		String[] parts = this.joinId.split("\\.");
		if (parts.length < 2) {
			return "";
		}
		return decoded(parts[1]);
	}

	private static String decoded(String part) {
		try {
			return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
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
		String last = parts[parts.length - 1];
		if (parts.length < 4 || !last.startsWith(FALLBACK_TAG)) {
			return Optional.empty();
		}
		try {
			return Optional.of(Duration.ofSeconds(Long.parseLong(last.substring(FALLBACK_TAG.length()))));
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
