package io.kindling.swipe.deck;

import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class DeckController {

	private final DeckService decks;

	DeckController(DeckService decks) {
		this.decks = decks;
	}

	@GetMapping("/api/deck")
	@Operation(summary = "Get the next cards of the deck",
			description = "The next `limit` (1 to 100) people to swipe on: the caller's super likers first "
					+ "(`super_liked_you`), then people who fit both sides' preferences, boosted ones marked "
					+ "`boosted`. A card is served once; 404 `no-profile` until the caller has a profile.")
	@Refuses("no-profile")
	DeckPage deck(@AuthenticationPrincipal Jwt jwt, @RequestParam(defaultValue = "20") @Min(1) @Max(100) int limit) {
		return new DeckPage(this.decks.next(Long.parseLong(jwt.getSubject()), limit));
	}

	record DeckPage(List<Card> cards) {

	}

}
