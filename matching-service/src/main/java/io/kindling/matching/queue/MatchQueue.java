package io.kindling.matching.queue;

/** One waiting queue: a topic and a room size. */
public record MatchQueue(long topicId, int size) {

	public String key() {
		return RedisKeys.queue(this.topicId, this.size);
	}

	String poppedKey() {
		return RedisKeys.popped(this.topicId, this.size);
	}

	String entryPartnersKey() {
		return RedisKeys.entryPartners(this.topicId, this.size);
	}

	String statsKey() {
		return RedisKeys.queueStats(this.topicId, this.size);
	}

	/** The queue a key {@code matching:queue:{<topicId>:<size>}} names. */
	public static MatchQueue fromKey(String key) {
		String tag = key.substring(RedisKeys.QUEUE_PREFIX.length() + 1, key.length() - 1);
		int colon = tag.indexOf(':');
		return new MatchQueue(Long.parseLong(tag.substring(0, colon)), Integer.parseInt(tag.substring(colon + 1)));
	}

}
