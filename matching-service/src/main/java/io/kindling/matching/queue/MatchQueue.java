package io.kindling.matching.queue;

/** One waiting queue: a topic and a room size. */
public record MatchQueue(long topicId, int size) {

	public String key() {
		return RedisKeys.queue(this.topicId, this.size);
	}

	/** The queue a key {@code matching:queue:<topicId>:<size>} names. */
	public static MatchQueue fromKey(String key) {
		String[] parts = key.substring(RedisKeys.QUEUE_PREFIX.length()).split(":");
		return new MatchQueue(Long.parseLong(parts[0]), Integer.parseInt(parts[1]));
	}

}
