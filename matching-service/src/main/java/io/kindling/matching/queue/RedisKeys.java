package io.kindling.matching.queue;

/**
 * The Redis keys of rooms. Each script touches one hash slot, so that the same keys work
 * on one server, behind Sentinels and on a cluster: a queue's keys share the tag
 * {@code {<topicId>:<size>}}, a token's claim has the token as its tag.
 */
public final class RedisKeys {

	public static final String PREFIX = "matching:";

	static final String QUEUE_PREFIX = PREFIX + "queue:";

	/**
	 * The queues that may hold someone (ZSET, score ms of the last join), which the
	 * sweeper visits; never {@code KEYS} or {@code SCAN}.
	 */
	public static final String ACTIVE_QUEUES = PREFIX + "queues";

	/** The topic part of a fallback queue's tag: {@code {any:<size>}}. */
	static final String ANY = "any";

	private RedisKeys() {
	}

	/** The queue's waiting entries: ZSET, member {@code <token>:<join id>}, score ms. */
	public static String queue(long topicId, int size) {
		return QUEUE_PREFIX + tag(topicId, size);
	}

	/**
	 * The queue's entries popped into a room whose claims are being moved: ZSET, member
	 * as the queue's, score ms when popped.
	 */
	public static String popped(long topicId, int size) {
		return PREFIX + "popped:" + tag(topicId, size);
	}

	/**
	 * The queue's entries' recent partners, stored with each entry at its join: hash,
	 * field the member, value {@code <id>:<until ms>,...}.
	 */
	public static String entryPartners(long topicId, int size) {
		return PREFIX + "entry-partners:" + tag(topicId, size);
	}

	/** What the queue-stats snapshot counts in the queue's slot: hash, field joins. */
	public static String queueStats(long topicId, int size) {
		return PREFIX + "queue-stats:" + tag(topicId, size);
	}

	/**
	 * Whom the token shared a room with lately: ZSET, member a partner's id
	 * ({@link RecentPartners#idOf}), score ms until which the two are not put together
	 * again.
	 */
	public static String partners(String token) {
		return PREFIX + "partners:{" + token + "}";
	}

	/**
	 * The queue's rooms whose seat a leave reopened, within their backfill window: ZSET,
	 * member the room id, score ms until which the seat is offered (open or taken).
	 */
	public static String openSeats(long topicId, int size) {
		return PREFIX + "open-seats:" + tag(topicId, size);
	}

	/**
	 * What each of the queue's offered seats needs for a newcomer: hash, field the room
	 * id, value JSON (state, conversation id, the room's people's partner ids).
	 */
	public static String seatOffers(long topicId, int size) {
		return PREFIX + "seat-offers:" + tag(topicId, size);
	}

	/** Where the token is: its one claim (hash), waiting or in a room. */
	public static String claim(String token) {
		return PREFIX + "claim:{" + token + "}";
	}

	private static String tag(long topicId, int size) {
		return "{" + ((topicId == MatchQueue.ANY_TOPIC) ? ANY : String.valueOf(topicId)) + ":" + size + "}";
	}

}
