package io.kindling.matching.queue;

import java.time.Instant;

/**
 * One join's entry in a queue. The join id tells this join from an earlier or later one
 * of the same token, so that a claim is only ever moved for the join it belongs to.
 *
 * @param token the session token
 * @param joinId random, one per join
 * @param since when the join began waiting (the entry's score)
 */
public record QueueEntry(String token, String joinId, Instant since) {

	/** The queue's member: {@code <token>:<join id>} (a token has no colon). */
	public String member() {
		return this.token + ":" + this.joinId;
	}

	static QueueEntry parse(String member, String score) {
		int colon = member.lastIndexOf(':');
		return new QueueEntry(member.substring(0, colon), member.substring(colon + 1),
				Instant.ofEpochMilli((long) Double.parseDouble(score)));
	}

}
