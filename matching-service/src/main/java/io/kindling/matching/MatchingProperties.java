package io.kindling.matching;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of room matching ({@code kindling.matching.*}), with their defaults.
 *
 * @param waitTimeout how long one may wait in a queue before being dropped
 * @param fallbackAfter how long the head of a size-3 queue waits before a room of two
 * forms
 * @param roomPendingTtl how long a formed room lives in Redis before its conversation is
 * written (a crash between pop and write frees its people after this)
 * @param roomTtl how long a room key lives once its conversation is written
 * @param sweepInterval how often each instance visits the active queues
 * @param sessionTtl how long an anonymous session token is valid
 * @param rateLimit per-address limits (0 turns a limit off)
 * @param topicCacheTtl how long the active topics read from the database are trusted
 * before they are read again (a topic added or retired shows after at most this; 0 reads
 * them on every join)
 * @param banCacheTtl how long the active bans read from the database are trusted (a new
 * ban bites after at most this; 0 asks the database on every join)
 * @param rematchCooldown how long two sessions that shared a room are not put together
 * again while someone else could form the room instead (0 turns this off)
 * @param rematchAfter how long the oldest of a room of recent partners must have waited
 * before that room forms, when nobody else in the queue can form one
 * @param reportsToBan reporters from distinct networks (IPv4 /24, IPv6 /64) within
 * {@code report-window} that ban a session
 * @param reportWindow how far back reports of a session are counted
 * @param reportBanNetworkFor how long a ban made by reports also bans the network the
 * banned session joined its room from (no join, no new session from it); 0 turns this off
 * @param adminToken the token the operators' API ({@code /api/admin/**}) wants; empty
 * turns that API off
 * @param partyTtl how long a party lives from its last change while its members neither
 * wait nor sit in a room (a party that joins lives through the longest wait and room, and
 * this long more; the leave that leaves both members out is a change)
 * @param backfillWindow how long after a room of three forms a member's leave reopens
 * their seat for the next single joiner of its topic (0 turns backfill off)
 */
@ConfigurationProperties("kindling.matching")
@Validated
public record MatchingProperties(@DefaultValue("5m") Duration waitTimeout, @DefaultValue("60s") Duration fallbackAfter,
		@DefaultValue("30s") Duration roomPendingTtl, @DefaultValue("10m") Duration roomTtl,
		@DefaultValue("1s") Duration sweepInterval, @DefaultValue("24h") Duration sessionTtl,
		@DefaultValue @Valid RateLimit rateLimit, @DefaultValue("5s") Duration topicCacheTtl,
		@DefaultValue("5s") Duration banCacheTtl, @DefaultValue("30m") Duration rematchCooldown,
		@DefaultValue("60s") Duration rematchAfter, @DefaultValue("3") @Min(1) int reportsToBan,
		@DefaultValue("24h") Duration reportWindow, @DefaultValue("1h") Duration reportBanNetworkFor,
		@DefaultValue("") String adminToken, @DefaultValue("10m") Duration partyTtl,
		@DefaultValue("120s") Duration backfillWindow) {

	public MatchingProperties {
		requirePositive("wait-timeout", waitTimeout);
		requirePositive("fallback-after", fallbackAfter);
		requirePositive("room-pending-ttl", roomPendingTtl);
		requirePositive("room-ttl", roomTtl);
		requirePositive("sweep-interval", sweepInterval);
		requirePositive("session-ttl", sessionTtl);
		requireNotNegative("topic-cache-ttl", topicCacheTtl);
		requireNotNegative("ban-cache-ttl", banCacheTtl);
		requireNotNegative("rematch-cooldown", rematchCooldown);
		requireNotNegative("rematch-after", rematchAfter);
		requirePositive("report-window", reportWindow);
		requireNotNegative("report-ban-network-for", reportBanNetworkFor);
		requirePositive("party-ttl", partyTtl);
		requireNotNegative("backfill-window", backfillWindow);
	}

	private static void requireNotNegative(String name, Duration value) {
		if (value.isNegative()) {
			throw new IllegalArgumentException("kindling.matching." + name + " must not be negative, was " + value);
		}
	}

	private static void requirePositive(String name, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException("kindling.matching." + name + " must be positive, was " + value);
		}
	}

	/**
	 * Per-address limits, counted in Redis so they hold across instances: an IPv4 address
	 * alone, an IPv6 address by its /64.
	 *
	 * @param joinsPerMinute joins ({@code POST /api/matching}) per address per minute, 0
	 * = off
	 * @param sessionsPerMinute sessions ({@code POST /api/sessions}) per address per
	 * minute, 0 = off
	 * @param partiesPerMinute parties made and party codes tried
	 * ({@code POST /api/parties} and {@code POST /api/parties/{code}/members}) per
	 * address per minute, 0 = off: it bounds guessing a code
	 */
	public record RateLimit(@DefaultValue("20") @Min(0) int joinsPerMinute,
			@DefaultValue("30") @Min(0) int sessionsPerMinute, @DefaultValue("10") @Min(0) int partiesPerMinute) {

	}

}
