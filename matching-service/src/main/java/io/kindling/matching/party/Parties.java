package io.kindling.matching.party;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.ratelimit.RateLimiter;
import io.kindling.matching.session.Session;
import io.kindling.support.web.Refused;

import org.springframework.stereotype.Service;

/**
 * Parties of two: one session makes a party and reads its code to a friend, whose session
 * joins it with that code; the creator then joins rooms of three for both
 * ({@code POST /api/matching} with {@code party_id}), and the claims take it from there.
 * A party lives {@code party-ttl} from its last change, and through the longest wait and
 * room once its creator joins for it, until both members are out again: then
 * {@code party-ttl} more.
 */
@Service
public class Parties {

	/**
	 * Letters and digits nobody confuses read aloud or written down: no 0/O, 1/I/L, and
	 * no U (V). 30 of them, six to a code: 729,000,000 codes.
	 */
	static final String CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ";

	static final int CODE_LENGTH = 6;

	/** Codes tried before giving up on finding a free one (each collision is rare). */
	private static final int CODE_ATTEMPTS = 5;

	private static final SecureRandom RANDOM = new SecureRandom();

	private final PartyStore store;

	private final RateLimiter rateLimiter;

	private final Clock clock;

	private final MatchingProperties properties;

	Parties(PartyStore store, RateLimiter rateLimiter, Clock clock, MatchingProperties properties) {
		this.store = store;
		this.rateLimiter = rateLimiter;
		this.clock = clock;
		this.properties = properties;
	}

	/** A new party of one, its creator. */
	PartyView create(Session session, String address) {
		this.rateLimiter.countParty(address);
		String partyId = randomId();
		for (int attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
			String code = randomCode();
			if (this.store.create(partyId, code, session.token(), this.clock.instant(), this.properties.partyTtl())) {
				return new PartyView(partyId, code, 1);
			}
		}
		throw new IllegalStateException("no free party code in " + CODE_ATTEMPTS + " attempts");
	}

	/**
	 * The session joins the party of this code as its second member; its creator or its
	 * member asking again changes nothing and gets the party.
	 * @throws io.kindling.support.web.Refused {@code rate-limited}, {@code no-such-party}
	 * (unknown, malformed or expired code) or {@code party-full}
	 */
	PartyView addMember(Session session, String code, String address) {
		this.rateLimiter.countParty(address);
		String normalized = code.toUpperCase(Locale.ROOT);
		if (!isCode(normalized)) {
			throw noSuchParty();
		}
		String partyId = this.store.partyIdOf(normalized).orElseThrow(Parties::noSuchParty);
		PartyStore.Added added = this.store.addMember(partyId, session.token(), address, this.properties.partyTtl());
		switch (added.outcome()) {
			case "none" -> throw noSuchParty();
			case "full" -> throw PartyRefusals.PARTY_FULL.refused("this party has its two members already");
			case "added" ->
				this.store.read(partyId).ifPresent((party) -> this.store.extend(party, this.properties.partyTtl()));
			default -> {
				// the creator, or the member again: nothing changes
			}
		}
		return new PartyView(partyId, normalized, added.members());
	}

	/**
	 * The refusals a join for a party meets before anything else, in the request's
	 * checks: a party only joins rooms of three.
	 * @throws io.kindling.support.web.Refused {@code party-size}
	 */
	public static void requireSize(int size) {
		if (size != 3) {
			throw PartyRefusals.PARTY_SIZE.refused("a party of two joins rooms of three only");
		}
	}

	/**
	 * A party waits for its topics only: its join never opts in to the fallback to
	 * anyone.
	 * @throws io.kindling.support.web.Refused {@code party-fallback}
	 */
	public static void requireNoFallback(Optional<Duration> fallbackAfter) {
		if (fallbackAfter.isPresent()) {
			throw PartyRefusals.PARTY_FALLBACK.refused("a party waits for its topics only: leave out fallback_after_s");
		}
	}

	/**
	 * The party's second member, for its creator's join.
	 * @throws io.kindling.support.web.Refused {@code no-such-party} (unknown, expired, or
	 * not the caller's), {@code not-party-creator} (its second member) or
	 * {@code party-incomplete} (nobody joined it yet)
	 */
	public QueueEntry.Party forJoin(String token, String partyId) {
		if (!partyId.matches("[A-Za-z0-9_-]{22}")) {
			throw noSuchParty();
		}
		PartyStore.Stored party = this.store.read(partyId).orElseThrow(Parties::noSuchParty);
		if (!party.creator().equals(token)) {
			if (token.equals(party.member())) {
				throw PartyRefusals.NOT_PARTY_CREATOR.refused("only the party's creator joins for it");
			}
			// someone else's party looks like none
			throw noSuchParty();
		}
		String member = party.member();
		if (member == null) {
			throw PartyRefusals.PARTY_INCOMPLETE.refused("nobody joined this party yet; share its code first");
		}
		String memberAddress = party.memberAddress();
		return new QueueEntry.Party(token, member, (memberAddress != null) ? memberAddress : "");
	}

	/**
	 * The creator joined for the party: it lives through the longest its wait and then
	 * its room can last, and {@code party-ttl} more; each member names it (the party its
	 * leave tells, {@link #left}) as long.
	 */
	public void joined(String partyId) {
		Duration lifetime = this.properties.waitTimeout()
			.plus(this.properties.roomTtl())
			.plus(this.properties.partyTtl());
		this.store.read(partyId).ifPresent((party) -> {
			this.store.extend(party, lifetime);
			if (party.member() != null) {
				this.store.markMembers(party, party.member(), lifetime);
			}
		});
	}

	/**
	 * A member of a party that joined left its queue or its room. Once the other is out
	 * too (neither waits nor sits in a room), the party lives {@code party-ttl} from now,
	 * as from any change, instead of the longest wait and room its join gave it; while
	 * the other still is, nothing changes (the other's leave does it).
	 * @param stillIn whether a session still waits, is being seated or sits in a room
	 */
	public void left(String token, Predicate<String> stillIn) {
		Optional<PartyStore.Stored> party = this.store.partyOf(token).flatMap(this.store::read);
		if (party.isEmpty()) {
			return;
		}
		PartyStore.Stored stored = party.get();
		String member = stored.member();
		if (member == null || !(token.equals(stored.creator()) || token.equals(member))) {
			return;
		}
		String other = token.equals(member) ? stored.creator() : member;
		if (!stillIn.test(other)) {
			this.store.extend(stored, this.properties.partyTtl());
			this.store.forgetMembers(stored, member);
		}
	}

	static boolean isCode(String code) {
		return code.length() == CODE_LENGTH && code.chars().allMatch((c) -> CODE_ALPHABET.indexOf(c) >= 0);
	}

	private static String randomCode() {
		StringBuilder code = new StringBuilder(CODE_LENGTH);
		for (int i = 0; i < CODE_LENGTH; i++) {
			code.append(CODE_ALPHABET.charAt(RANDOM.nextInt(CODE_ALPHABET.length())));
		}
		return code.toString();
	}

	/** 128 random bits, URL-safe base64: no colon, dot or brace, as keys need. */
	private static String randomId() {
		byte[] bytes = new byte[16];
		RANDOM.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	private static Refused noSuchParty() {
		return PartyRefusals.NO_SUCH_PARTY.refused("no party has this code or id, or it expired");
	}

}
