package io.kindling.support.paging;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;

import io.kindling.support.web.Refusal;
import org.jspecify.annotations.Nullable;

/**
 * An opaque keyset position for pages: the time and id of the last row shown, and for
 * lists read in tiers (super likes before likes), or for one endpoint serving two lists,
 * the tier it was in. Base64url of {@code epochMicros:id}, or {@code tier:epochMicros:id}
 * past the first tier. A cursor that cannot be read is refused with the service's own
 * {@code bad-cursor} refusal, which the caller names.
 *
 * @param tier 0 for the first tier (and for lists of one)
 */
public record Cursor(int tier, Instant at, long id) {

	/**
	 * Before every row of a list read newest first: the last instant a {@code TIMESTAMP}
	 * holds (FROM_UNIXTIME is NULL past it).
	 */
	public static final Cursor FIRST = new Cursor(0, Instant.parse("2038-01-19T03:14:07.999999Z"), Long.MAX_VALUE);

	public Cursor(Instant at, long id) {
		this(0, at, id);
	}

	/** The cursor a caller sent back for a list of one tier, {@link #FIRST} for none. */
	public static Cursor parse(@Nullable String cursor, Refusal badCursor) {
		return parse(cursor, 1, badCursor);
	}

	/**
	 * The cursor a caller sent back for a list of {@code tiers} tiers, {@link #FIRST} for
	 * none.
	 */
	public static Cursor parse(@Nullable String cursor, int tiers, Refusal badCursor) {
		if (cursor == null || cursor.isEmpty()) {
			return FIRST;
		}
		try {
			String[] parts = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII).split(":");
			int tier = (parts.length == 3) ? Integer.parseInt(parts[0]) : 0;
			if (parts.length >= 2 && parts.length <= 3 && tier >= 0 && tier < tiers) {
				long micros = Long.parseLong(parts[parts.length - 2]);
				return new Cursor(tier, Instant.EPOCH.plus(micros, ChronoUnit.MICROS),
						Long.parseLong(parts[parts.length - 1]));
			}
		}
		catch (RuntimeException ex) {
			// falls through to the refusal
		}
		throw badCursor.refused("cursor must be a next_cursor from an earlier page.");
	}

	/**
	 * This cursor, if a list of that tier gave it out (one endpoint serving two lists).
	 */
	public Cursor requireTier(int tier, Refusal badCursor) {
		if (this.tier != tier) {
			throw badCursor.refused("cursor must be a next_cursor from an earlier page of this list.");
		}
		return this;
	}

	/** The same position at the start of a tier: before every row of it. */
	public static Cursor startOf(int tier) {
		return new Cursor(tier, FIRST.at(), FIRST.id());
	}

	public String encode() {
		long micros = ChronoUnit.MICROS.between(Instant.EPOCH, this.at);
		String position = micros + ":" + this.id;
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(
					((this.tier == 0) ? position : this.tier + ":" + position).getBytes(StandardCharsets.US_ASCII));
	}

}
