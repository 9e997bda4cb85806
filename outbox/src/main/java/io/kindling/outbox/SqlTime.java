package io.kindling.outbox;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * Times bound into SQL with their microseconds, on MariaDB as on MySQL. A bound
 * {@code Timestamp}, {@code Instant} or {@code LocalDateTime} loses its fraction on
 * MariaDB 10.x: Connector/J reads the handshake's "5.5.5-" prefix as the server's version
 * and, below MySQL 5.6.4, sends whole seconds. Every time the services write or compare
 * is therefore bound as {@code FROM_UNIXTIME(:param)} with {@link #epochSeconds}, which
 * converts in the session's zone, as a {@code TIMESTAMP} column does. Reading with
 * {@code getTimestamp} keeps the fraction the server sends, and is right only when the
 * driver's {@code connectionTimeZone} is the session's zone: every pool here sets both to
 * UTC ({@code connectionTimeZone=UTC}, {@code sessionVariables=time_zone='+00:00'}),
 * which also leaves no daylight-saving hour for {@code FROM_UNIXTIME} to make ambiguous.
 */
public final class SqlTime {

	/**
	 * The driver properties that put a connection in UTC both ways, as said above, for
	 * pools built in code; the services' own pools set the same two in
	 * {@code application.yml}.
	 */
	public static final Map<String, String> UTC_CONNECTION = Map.of("connectionTimeZone", "UTC", "sessionVariables",
			"time_zone='+00:00'");

	private SqlTime() {
	}

	/**
	 * The time as seconds since the epoch to the microsecond, for {@code FROM_UNIXTIME}.
	 */
	public static BigDecimal epochSeconds(Instant time) {
		return new BigDecimal(BigInteger.valueOf(ChronoUnit.MICROS.between(Instant.EPOCH, time)), 6);
	}

}
