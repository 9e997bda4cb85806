package io.kindling.matching.room;

/**
 * A reopened seat MySQL will not fill: its room ended, nobody is left in it, or it was
 * backfilled already (an offer a Redis failover repeated). Nothing was written.
 */
class SeatGone extends RuntimeException {

	SeatGone(String detail) {
		super(detail, null, false, false);
	}

}
