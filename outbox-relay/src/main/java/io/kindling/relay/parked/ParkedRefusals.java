package io.kindling.relay.parked;

import io.kindling.support.web.Refusal;
import io.kindling.support.web.Refused;

import org.springframework.http.HttpStatus;

/** The ways the parked rows' API refuses a call, besides a missing admin token. */
enum ParkedRefusals implements Refusal {

	/** No parked row has this event id: never parked, already retried, or unknown. */
	PARKED_ROW_NOT_FOUND("parked-row-not-found", HttpStatus.NOT_FOUND, "Parked row not found");

	private final Type type;

	ParkedRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

	static Refused notFound(String eventId) {
		return PARKED_ROW_NOT_FOUND.refused("no parked row with id " + eventId);
	}

}
