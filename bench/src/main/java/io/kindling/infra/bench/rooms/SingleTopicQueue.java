package io.kindling.infra.bench.rooms;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;

/**
 * One size-2 queue of people who each named one topic, formed from by
 * {@code form_room.lua} alone, with its popped records and its entries' recent partners.
 * With a tenth incompatible, one entry in ten is a recent partner of the entry ahead of
 * it, so a tenth of the pops find the two oldest unable to share a room and look further.
 */
final class SingleTopicQueue extends FormingCosts.Shape {

	private final boolean tenthIncompatible;

	private final List<String> keys;

	private String lastToken = "";

	private long added;

	SingleTopicQueue(UnifiedJedis jedis, FormingCosts.Scripts scripts, int depth, boolean tenthIncompatible) {
		super(jedis, scripts, depth);
		this.tenthIncompatible = tenthIncompatible;
		String prefix = "bench:" + depth + (tenthIncompatible ? ":tenth:" : ":plain:");
		this.keys = List.of(prefix + "queue:1:2", prefix + "popped", prefix + "entry-partners");
	}

	@Override
	String label() {
		return String.format("form_room.lua, %,d waiting%s", this.depth,
				this.tenthIncompatible ? ", 1/10 incompatible" : "");
	}

	@Override
	String family() {
		return "one topic";
	}

	@Override
	void form() {
		Object result = this.jedis.evalsha(this.scripts.formRoom(), this.keys,
				FormingCosts.formArgs(System.currentTimeMillis(), ""));
		if (!FormingCosts.formedRoom(result)) {
			throw new IllegalStateException("form_room.lua formed no room at depth " + this.depth + ": " + result);
		}
	}

	@Override
	void add(AbstractPipeline pipeline, long score) {
		String token = Long.toHexString(ThreadLocalRandom.current().nextLong()) + score;
		// a queue's member is "<token>:<join id>"; the tokens' claims live in other slots
		String member = token + ":" + Long.toHexString(score);
		pipeline.zadd(this.keys.get(0), score, member);
		if (this.tenthIncompatible && ++this.added % 10 == 0 && !this.lastToken.isEmpty()) {
			// as enqueue.lua stores a joiner's list: "<partner id>:<until ms>"
			pipeline.hset(this.keys.get(2), member,
					partnerId(this.lastToken) + ":" + (System.currentTimeMillis() + 3_600_000));
		}
		this.lastToken = token;
	}

	/**
	 * As the service names a recent partner: the first 16 hex digits of its token's
	 * SHA-1.
	 */
	static String partnerId(String token) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-1").digest(token.getBytes(StandardCharsets.US_ASCII));
			return HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
