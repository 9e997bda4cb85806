package io.kindling.matching.queue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One join's entry in a queue. The join id tells this join from an earlier or later one
 * of the same token, so that a claim is only ever moved for the join it belongs to; it
 * also carries the address the join came from, so that forming can ask the ban list about
 * an entry it pops without another read.
 *
 * @param token the session token
 * @param joinId random, one per join: {@code <random>.<address>}, both URL-safe base64
 * @param since when the join began waiting (the entry's score)
 */
public record QueueEntry(String token, String joinId, Instant since) {

	private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

	/**
	 * A new join's id: 64 random bits, then the joiner's address. Neither part holds a
	 * colon, which ends the token in a member, nor a dot, which parts the two.
	 */
	public static String newJoinId(String address) {
		byte[] random = new byte[8];
		ThreadLocalRandom.current().nextBytes(random);
		return BASE64.encodeToString(random) + "." + BASE64.encodeToString(address.getBytes(StandardCharsets.UTF_8));
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
		int dot = this.joinId.indexOf('.');
		if (dot < 0) {
			return "";
		}
		try {
			return new String(Base64.getUrlDecoder().decode(this.joinId.substring(dot + 1)), StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			// not an id this service wrote
			return "";
		}
	}

	static QueueEntry parse(String member, String score) {
		int colon = member.lastIndexOf(':');
		return new QueueEntry(member.substring(0, colon), member.substring(colon + 1),
				Instant.ofEpochMilli((long) Double.parseDouble(score)));
	}

}
