package io.kindling.redis.bloom;

/**
 * Key names of one owner's filter, all with the owner as hash tag so that every script
 * touches one slot: {@code <name>:{<owner>}:<bucket>} per bucket and
 * {@code <name>:{<owner>}:count}, the number of items added, whose presence marks the
 * filter as live (a flushed Redis loses it and the owner's filter is rebuilt).
 */
public record BloomKeys(String name) {

	public String prefix(String owner) {
		return this.name + ":{" + owner + "}:";
	}

	public String bucket(String owner, long bucket) {
		return prefix(owner) + bucket;
	}

	public String count(String owner) {
		return prefix(owner) + "count";
	}

}
