package io.kindling.matching;

import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.http.Response;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.junit.jupiter.api.Test;

import static io.kindling.matching.RoomFeatures.assertProblem;
import static io.kindling.matching.RoomFeatures.from;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Reports and bans that throwaway sessions do not get round, over HTTP from several
 * loopback networks ({@code 127.0.<n>.0/24}, one IPv4 /24 each): reports count once per
 * reporter network, a ban made by reports bans its session's network for
 * {@code report-ban-network-for}, an operator's address ban takes a waiting session out
 * of its queue with nobody polling, and forming never seats a banned address.
 */
class NetworkBansIT extends RoomFeatureTest {

	@Test
	void threeSessionsOfOneNetworkReportingAStrangerDoNotBanItThreeNetworksDo() {
		String stranger = this.api.session();
		Api strangerFrom = from(this.api, 60, 1);
		List<String> reporters = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			String reporter = this.api.session();
			RoomFeatures.shareARoom(strangerFrom, stranger, this.api, reporter, 1);
			reporters.add(reporter);
		}
		// three throwaway sessions, one network
		for (int i = 0; i < 3; i++) {
			assertThat(RoomFeatures.report(from(this.api, 1, i + 1), reporters.get(i), "SPAM").status()).isEqualTo(201);
		}
		assertThat(RoomFeatures.sessionBans(this.jdbc, Session.keyOf(stranger))).isZero();
		assertThat(this.api.join(stranger, 2, 2).status()).isEqualTo(202);
		assertThat(this.api.leave(stranger).status()).isEqualTo(204);

		assertThat(RoomFeatures.report(from(this.api, 2, 1), reporters.get(3), "SPAM").status()).isEqualTo(201);
		assertThat(RoomFeatures.sessionBans(this.jdbc, Session.keyOf(stranger))).as("two networks").isZero();
		assertThat(RoomFeatures.report(from(this.api, 3, 1), reporters.get(4), "SPAM").status()).isEqualTo(201);
		assertThat(RoomFeatures.sessionBans(this.jdbc, Session.keyOf(stranger))).as("three networks").isOne();
		assertProblem(this.api.join(stranger, 2, 2), 403, "banned");

		// nobody reports someone they were never seated with: a report names the others
		// of the reporter's own last room, and one who has none is refused
		assertProblem(RoomFeatures.report(from(this.api, 4, 1), this.api.session(), "SPAM"), 404, "no-room");
	}

	@Test
	void theNetworkOfASessionBannedByReportsMayNeitherStartASessionNorJoinForAnHour() {
		String victim = this.api.session();
		for (int network = 1; network <= 3; network++) {
			String reporter = this.api.session();
			RoomFeatures.shareARoom(from(this.api, 61, 1), victim, this.api, reporter, 1);
			assertThat(RoomFeatures.report(from(this.api, network, 1), reporter, "HARASSMENT").status()).isEqualTo(201);
		}
		assertThat(RoomFeatures.sessionBans(this.jdbc, Session.keyOf(victim))).isOne();
		Timestamp networkBanEnds = this.jdbc
			.sql("SELECT expires_at FROM bans WHERE ban_type = 'IP' AND subject = '127.0.61.0/24'")
			.query(Timestamp.class)
			.single();
		assertThat(Duration.between(this.clock.instant(), networkBanEnds.toInstant()).toSeconds())
			.isCloseTo(Duration.ofHours(1).toSeconds(), within(1L));

		// a new session from any address of that network: refused; from another: not
		String madeElsewhere = this.api.session();
		assertProblem(from(this.api, 61, 7).send("POST", "/api/sessions", null, null), 403, "banned");
		assertProblem(from(this.api, 61, 8).join(madeElsewhere, 1, 2), 403, "banned");
		assertThat(from(this.api, 62, 1).send("POST", "/api/sessions", null, null).status()).isEqualTo(201);

		this.clock.advance(Duration.ofHours(1));
		assertThat(from(this.api, 61, 7).send("POST", "/api/sessions", null, null).status()).isEqualTo(201);
		assertThat(from(this.api, 61, 8).join(madeElsewhere, 1, 2).status()).isEqualTo(202);
		assertProblem(this.api.join(victim, 1, 2), 403, "banned");
	}

	@Test
	void anOperatorsAddressBanTakesAWaitingSessionOutOfItsQueueWithNobodyPolling() {
		Api bannedFrom = from(this.api, 63, 5);
		String waiting = this.api.session();
		assertThat(bannedFrom.join(waiting, 1, 2).status()).isEqualTo(202);

		Response ban = RoomFeatures.admin(this.api, "POST", "/api/admin/bans",
				"{\"ban_type\":\"IP\",\"value\":\"127.0.63.77/24\"}");

		assertThat(ban.status()).as(ban.body()).isEqualTo(201);
		assertThat(ban.field("value")).isEqualTo("127.0.63.0/24");
		// nobody polled: its claim and its entry are gone
		assertThat(this.redis.hasKey(RedisKeys.claim(waiting))).isFalse();
		assertThat(this.redis.opsForZSet().size(RedisKeys.queue(1, 2))).isZero();
		assertProblem(bannedFrom.join(waiting, 1, 2), 403, "banned");
		assertProblem(bannedFrom.send("POST", "/api/sessions", null, null), 403, "banned");
		assertThat(this.api.join(waiting, 1, 2).status()).as("from elsewhere").isEqualTo(202);
	}

	@Test
	void formingNeverSeatsSomeoneWhoseAddressWasBannedAfterItJoined() {
		String banned = this.api.session();
		assertThat(from(this.api, 64, 1).join(banned, 2, 2).status()).isEqualTo(202);
		// the ban reaches the table and this instance hears nothing of it (another
		// instance made it and its push was lost): its cache reads it within
		// ban-cache-ttl
		this.jdbc.sql("INSERT INTO bans (ban_type, subject) VALUES ('IP', '127.0.64.0/24')").update();
		this.clock.advance(Duration.ofSeconds(5));
		long before = RoomFeatures.lastConversationId(this.jdbc);

		String newcomer = this.api.session();
		Response joined = this.api.join(newcomer, 2, 2);

		assertThat(joined.status()).as("not seated with the banned one").isEqualTo(202);
		assertThat(this.redis.hasKey(RedisKeys.claim(banned))).isFalse();
		assertThat(this.redis.opsForZSet().range(RedisKeys.queue(2, 2), 0, -1)).singleElement()
			.satisfies((member) -> assertThat(member).startsWith(newcomer + ":"));
		assertThat(RoomFeatures.conversations(this.jdbc, before)).isEmpty();
	}

}
