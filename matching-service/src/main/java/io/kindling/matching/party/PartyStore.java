package io.kindling.matching.party;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kindling.redis.LuaScript;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Where parties live, in Redis: {@code matching:party:{<party id>}} (a hash: code,
 * creator, created_at, then member and member_address) and
 * {@code matching:party-code:{<code>}} (the party id), each in a slot of its own, both
 * with the party's lifetime; and once it joined, {@code matching:party-of:{<token>}} (the
 * party id) for each member, in its token's slot. Each call is one command or one script
 * on one slot.
 */
@Component
class PartyStore {

	private final LuaScript<Long> create = LuaScript.load("party_create", Long.class);

	private final LuaScript<List> addMember = LuaScript.load("party_add_member", List.class);

	private final StringRedisTemplate redis;

	PartyStore(StringRedisTemplate redis) {
		this.redis = redis;
	}

	static String partyKey(String partyId) {
		return "matching:party:{" + partyId + "}";
	}

	static String codeKey(String code) {
		return "matching:party-code:{" + code + "}";
	}

	/**
	 * Takes the code for a new party, then makes the party.
	 * @return false when a live party holds the code already (nothing written)
	 */
	boolean create(String partyId, String code, String creator, Instant now, Duration lifetime) {
		if (!Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(codeKey(code), partyId, lifetime))) {
			return false;
		}
		this.create.run(this.redis, List.of(partyKey(partyId)), code, creator, String.valueOf(now.toEpochMilli()),
				String.valueOf(lifetime.toMillis()));
		return true;
	}

	/**
	 * The party a session joined for (as its creator or its member), in the session's
	 * slot: what its leave reads to tell the party.
	 */
	static String memberKey(String token) {
		return "matching:party-of:{" + token + "}";
	}

	/** Both members name the party for this long from now. */
	void markMembers(Stored party, String member, Duration lifetime) {
		this.redis.opsForValue().set(memberKey(party.creator()), party.partyId(), lifetime);
		this.redis.opsForValue().set(memberKey(member), party.partyId(), lifetime);
	}

	/** The party this session last joined for, while it lives. */
	Optional<String> partyOf(String token) {
		return Optional.ofNullable(this.redis.opsForValue().get(memberKey(token)));
	}

	/** Neither member names the party any more. */
	void forgetMembers(Stored party, String member) {
		this.redis.delete(memberKey(party.creator()));
		this.redis.delete(memberKey(member));
	}

	Optional<String> partyIdOf(String code) {
		return Optional.ofNullable(this.redis.opsForValue().get(codeKey(code)));
	}

	/** The party's fields; empty when it does not exist (or expired). */
	Optional<Stored> read(String partyId) {
		Map<String, String> fields = this.redis.<String, String>opsForHash().entries(partyKey(partyId));
		String code = fields.get("code");
		String creator = fields.get("creator");
		if (code == null || creator == null) {
			return Optional.empty();
		}
		return Optional.of(new Stored(partyId, code, creator, fields.get("member"), fields.get("member_address")));
	}

	/** {@code party_add_member.lua}: the outcome and how many members the party has. */
	Added addMember(String partyId, String token, String address, Duration lifetime) {
		List<?> answer = this.addMember.run(this.redis, List.of(partyKey(partyId)), token, address,
				String.valueOf(lifetime.toMillis()));
		return new Added(String.valueOf(answer.get(0)), Integer.parseInt(String.valueOf(answer.get(1))));
	}

	/** Both keys live this long from now. */
	void extend(Stored party, Duration lifetime) {
		this.redis.expire(codeKey(party.code()), lifetime);
		this.redis.expire(partyKey(party.partyId()), lifetime);
	}

	record Stored(String partyId, String code, String creator, @Nullable String member,
			@Nullable String memberAddress) {

	}

	/**
	 * @param outcome {@code none}, {@code creator}, {@code member}, {@code added} or
	 * {@code full}
	 */
	record Added(String outcome, int members) {

	}

}
