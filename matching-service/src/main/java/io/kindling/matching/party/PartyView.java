package io.kindling.matching.party;

/**
 * A party as its members see it (never its tokens).
 *
 * @param partyId what the creator joins for ({@code POST /api/matching},
 * {@code party_id})
 * @param code what the second member joins the party with, read aloud
 * @param members one until the second member joins, then two
 */
public record PartyView(String partyId, String code, int members) {

}
