package io.kindling.matching.queue;

/**
 * One waiting queue: a topic and a room size; or, with {@link #ANY_TOPIC}, the size's
 * fallback queue, where those who opted in to anyone wait besides their topics' queues.
 */
public record MatchQueue(long topicId, int size) {

	/** The topic id of a fallback queue (no topic has it: topic ids are positive). */
	public static final long ANY_TOPIC = 0;

	/** The fallback queue of this size: {@code matching:queue:{any:<size>}}. */
	public static MatchQueue anyTopic(int size) {
		return new MatchQueue(ANY_TOPIC, size);
	}

	/** True for a fallback queue, whose entries may be matched whatever their topics. */
	public boolean isAnyTopic() {
		return this.topicId == ANY_TOPIC;
	}

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
		String topic = tag.substring(0, colon);
		return new MatchQueue(RedisKeys.ANY.equals(topic) ? ANY_TOPIC : Long.parseLong(topic),
				Integer.parseInt(tag.substring(colon + 1)));
	}

}
