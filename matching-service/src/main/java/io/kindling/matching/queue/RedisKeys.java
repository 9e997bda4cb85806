package io.kindling.matching.queue;

/** The Redis keys of rooms. */
public final class RedisKeys {

	public static final String PREFIX = "matching:";

	static final String QUEUE_PREFIX = PREFIX + "queue:";

	/** The set of queue keys that may hold someone; the sweeper visits these. */
	public static final String ACTIVE_QUEUES = PREFIX + "queues";

	private RedisKeys() {
	}

	public static String queue(long topicId, int size) {
		return QUEUE_PREFIX + topicId + ":" + size;
	}

	public static String waiting(String token) {
		return PREFIX + "waiting:" + token;
	}

	public static String room(String token) {
		return PREFIX + "room:" + token;
	}

}
