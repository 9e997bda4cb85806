package io.kindling.matching.party;

import jakarta.servlet.http.HttpServletRequest;

import io.kindling.matching.session.Session;
import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class PartyController {

	private final Parties parties;

	PartyController(Parties parties) {
		this.parties = parties;
	}

	/**
	 * The session comes first, so a request without one is 401 before anything else.
	 */
	@PostMapping("/api/parties")
	@Operation(summary = "Make a party of two",
			description = "201 with the party's `party_id` (what its creator joins rooms for) and its `code` (six "
					+ "letters and digits to read aloud, what the second member joins it with). The party lives "
					+ "`party-ttl` from its last change, and through its wait and its room once its creator joins "
					+ "for it, until both members left: then `party-ttl` more. 429 `rate-limited` past the per-address limit on parties made and codes tried.")
	@ApiResponse(responseCode = "201", description = "Made", useReturnTypeSchema = true)
	@Refuses({ "rate-limited" })
	ResponseEntity<PartyView> create(Session session, HttpServletRequest http) {
		return ResponseEntity.status(HttpStatus.CREATED).body(this.parties.create(session, http.getRemoteAddr()));
	}

	@PostMapping("/api/parties/{code}/members")
	@Operation(summary = "Join a party with its code",
			description = "The session becomes the party's second member: 200 with the party. Its creator or its "
					+ "member asking again get the party, changing nothing. 404 `no-such-party` for a code no live "
					+ "party has (letters are read in either case), 409 `party-full` once it has two members, 429 "
					+ "`rate-limited` past the per-address limit on codes tried.")
	@Refuses({ "rate-limited", "no-such-party", "party-full" })
	PartyView join(Session session, @PathVariable String code, HttpServletRequest http) {
		return this.parties.addMember(session, code, http.getRemoteAddr());
	}

}
