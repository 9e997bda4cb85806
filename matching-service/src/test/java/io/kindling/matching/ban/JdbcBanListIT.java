package io.kindling.matching.ban;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;

import io.kindling.infra.test.MutableClock;
import io.kindling.matching.MatchingServiceTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/** How long the held bans are trusted, against the real {@code bans} table. */
@MatchingServiceTest
class JdbcBanListIT {

	@Autowired
	BanList bans;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	MutableClock clock;

	@AfterEach
	void noBans() {
		this.jdbc.sql("DELETE FROM bans").update();
	}

	@Test
	void aNewBanBitesWithinTheCacheTtlAndAnExpiredOneStopsAtOnce() {
		assertThat(this.bans.isBanned("session-a", "10.0.0.1")).isFalse();
		ban("SESSION", "session-a", this.clock.instant().plusSeconds(30));
		ban("IP", "10.0.0.2", null);
		// held from the read above, for at most ban-cache-ttl (5 s)
		assertThat(this.bans.isBanned("session-a", "10.0.0.1")).isFalse();
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(this.bans.isBanned("session-a", "10.0.0.1")).isTrue();
		assertThat(this.bans.isBanned("session-b", "10.0.0.2")).isTrue();
		assertThat(this.bans.isBanned("session-b", "10.0.0.1")).isFalse();
		// the session ban ends 30 s after it began, between two reads of the table
		this.clock.advance(Duration.ofSeconds(24));
		assertThat(this.bans.isBanned("session-a", "10.0.0.1")).isTrue();
		this.clock.advance(Duration.ofSeconds(2));
		assertThat(this.bans.isBanned("session-a", "10.0.0.1")).isFalse();
	}

	@Test
	void aListTooLongToHoldIsAskedOnEveryJoin() {
		JdbcBanList small = new JdbcBanList(this.jdbc, this.clock, Duration.ofSeconds(5), 1);
		ban("IP", "10.0.0.3", null);
		ban("IP", "10.0.0.4", null);
		assertThat(small.isBanned("session-c", "10.0.0.3")).isTrue();
		ban("SESSION", "session-c", null);
		// no snapshot: seen at once
		assertThat(small.isBanned("session-c", "10.0.0.9")).isTrue();
		assertThat(small.isBanned("session-d", "10.0.0.9")).isFalse();
	}

	@Test
	void anAddressIsBannedByItselfOrByANetworkItLiesInAndAnIpv6AddressOnlyByItsSlash64OrWider() {
		for (JdbcBanList list : new JdbcBanList[] { held(), askedEachTime() }) {
			ban("IP", "203.0.113.0/24", null);
			ban("IP", "2001:db8:1:2::/64", null);
			ban("IP", "2001:db9::/32", null);
			ban("IP", "198.51.100.7", null);

			assertThat(list.isAddressBanned("203.0.113.200")).isTrue();
			assertThat(list.isAddressBanned("203.0.114.1")).isFalse();
			assertThat(list.isAddressBanned("198.51.100.7")).isTrue();
			assertThat(list.isAddressBanned("198.51.100.8")).as("an IPv4 address alone").isFalse();
			// any address of the /64, however it is written
			assertThat(list.isAddressBanned("2001:db8:1:2:ffff:ffff:ffff:ffff")).isTrue();
			assertThat(list.isAddressBanned("2001:0db8:0001:0002:0:0:0:1")).isTrue();
			assertThat(list.isAddressBanned("2001:db8:1:3::1")).isFalse();
			assertThat(list.isAddressBanned("2001:db9:abcd::1")).isTrue();
			assertThat(list.isBanned("session-e", "2001:db8:1:2::99")).isTrue();
			assertThat(list.isBanned("session-e", "")).isFalse();
			noBans();
		}
	}

	@Test
	void anIpv6AddressBannedAloneBeforeBansKeptNetworksBansItsSlash64() {
		ban("IP", "2001:db8:1:2::7", null);

		assertThat(held().isAddressBanned("2001:db8:1:2::8")).isTrue();
	}

	private JdbcBanList held() {
		return new JdbcBanList(this.jdbc, this.clock, Duration.ofSeconds(5), JdbcBanList.MAX_HELD);
	}

	/** The cache off: the table asked on every question. */
	private JdbcBanList askedEachTime() {
		return new JdbcBanList(this.jdbc, this.clock, Duration.ZERO, JdbcBanList.MAX_HELD);
	}

	private void ban(String type, String subject, @Nullable Instant until) {
		this.jdbc.sql("INSERT INTO bans (ban_type, subject, expires_at) VALUES (:type, :subject, :until)")
			.param("type", type)
			.param("subject", subject)
			.param("until", (until != null) ? Timestamp.from(until) : null)
			.update();
	}

}
