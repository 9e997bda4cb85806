package io.kindling.swipe.deck;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One place in a stored deck: a card, or a boost slot. A slot holds the boosted people
 * this viewer may be shown there; which one is chosen when the page holding the slot is
 * served, from the views counted at that moment, so a deck assembled ahead never shows a
 * pick made on views that have moved on since.
 *
 * @param card the card, or null for a slot
 * @param boostCandidates a slot's candidates (as boosted cards), empty for a card
 */
record DeckEntry(@Nullable Card card, List<Card> boostCandidates) {

	DeckEntry {
		boostCandidates = List.copyOf(boostCandidates);
	}

	static DeckEntry of(Card card) {
		return new DeckEntry(card, List.of());
	}

	static DeckEntry slot(List<Card> candidates) {
		return new DeckEntry(null, candidates);
	}

	boolean isSlot() {
		return this.card == null;
	}

}
