package io.kindling.matching.party;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The ways making, joining and joining for a party are refused. */
enum PartyRefusals implements Refusal {

	/** No party has this code or id, it expired, or the caller is not in it. */
	NO_SUCH_PARTY("no-such-party", HttpStatus.NOT_FOUND, "No such party"),

	/** The party has its two members already. */
	PARTY_FULL("party-full", HttpStatus.CONFLICT, "Party full"),

	/** A join for a party by its second member: only its creator joins for it. */
	NOT_PARTY_CREATOR("not-party-creator", HttpStatus.FORBIDDEN, "Not the party's creator"),

	/** A join for a party nobody else joined yet. */
	PARTY_INCOMPLETE("party-incomplete", HttpStatus.CONFLICT, "Party incomplete"),

	/** A join for a party names a room size other than three. */
	PARTY_SIZE("party-size", HttpStatus.BAD_REQUEST, "Parties join rooms of three"),

	/** A join for a party opts in to the fallback to anyone. */
	PARTY_FALLBACK("party-fallback", HttpStatus.BAD_REQUEST, "Parties do not fall back");

	private final Type type;

	PartyRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
