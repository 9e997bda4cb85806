package io.kindling.matching.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.matching.MatchingProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code form_room.lua}'s rules for a party's entry, on a real Redis, script by script:
 * it weighs two, goes into a room of three with one person alone, never with another
 * party, never into a room of two, and carries both members' recent partners.
 */
@RealServers(Server.REDIS)
class PartyFormingIT {

	static final MatchingProperties SETTINGS = new Binder(new MapConfigurationPropertySource(Map.of()))
		.bindOrCreate("kindling.matching", MatchingProperties.class);

	static final MatchQueue QUEUE = new MatchQueue(1, 3);

	static JedisConnectionFactory connections;

	static StringRedisTemplate redis;

	static FormRoomScript script;

	final Instant start = Instant.parse("2026-12-05T10:00:00Z");

	@BeforeAll
	static void connect() {
		connections = new JedisConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", RealServersExtension.redis().port()));
		connections.afterPropertiesSet();
		connections.start();
		redis = new StringRedisTemplate(connections);
		script = new FormRoomScript(redis, SETTINGS);
	}

	@AfterAll
	static void disconnect() {
		connections.destroy();
	}

	@BeforeEach
	void empty() {
		redis.execute((RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushDb();
			return null;
		});
	}

	@Test
	void theOldestPartyTakesTheNextPersonAloneAndTheSecondPartyWaits() {
		QueueEntry first = party("a1", "a2", 0);
		QueueEntry second = party("b1", "b2", 1);
		QueueEntry single = single("c", 2);
		assertThat(join(first).room()).isEmpty();
		assertThat(join(second).room()).as("two parties weigh four").isEmpty();

		FormRoomScript.Result result = join(single);

		PoppedRoom room = result.room().orElseThrow();
		assertThat(room.tokens()).containsExactly("a1", "a2", "c");
		assertThat(room.roomType()).isEqualTo(3);
		assertThat(room.fallback()).isFalse();
		assertThat(result.stillWaiting()).isOne();
		assertThat(redis.opsForZSet().range(QUEUE.key(), 0, -1)).containsExactly(second.member());
	}

	@Test
	void aPartyIsNeverInARoomOfTwoPastTheFallbackOrTheRematchWait() {
		join(party("a1", "a2", 0));
		join(party("b1", "b2", 1));

		FormRoomScript.Result later = script.form(QUEUE, this.start.plus(Duration.ofMinutes(2)), Optional.empty());

		assertThat(later.room()).isEmpty();
		assertThat(later.stillWaiting()).isEqualTo(2);
	}

	@Test
	void theFallbackSeatsTwoPeopleAlonePastAPartyItCannotSeat() {
		String until = String.valueOf(this.start.plus(Duration.ofMinutes(30)).toEpochMilli());
		script.join(QUEUE, party("a1", "a2", 0),
				RecentPartners.idOf("c") + ":" + until + "," + RecentPartners.idOf("d") + ":" + until, this.start);
		assertThat(join(single("c", 1)).room()).isEmpty();
		assertThat(join(single("d", 2)).room()).as("both are the party's recent partners").isEmpty();

		FormRoomScript.Result result = script.form(QUEUE, this.start.plus(Duration.ofSeconds(62)), Optional.empty());

		assertThat(result.room().orElseThrow().tokens()).containsExactly("c", "d");
		assertThat(result.room().orElseThrow().fallback()).isTrue();
		assertThat(result.stillWaiting()).as("the party").isOne();
	}

	@Test
	void aRecentPartnerOfTheSecondMemberIsPassedByForSomeoneElse() {
		QueueEntry party = party("a1", "a2", 0);
		String until = String.valueOf(this.start.plus(Duration.ofMinutes(30)).toEpochMilli());
		script.join(QUEUE, party, RecentPartners.idOf("partner") + ":" + until, this.start);
		assertThat(join(single("partner", 1)).room()).isEmpty();

		FormRoomScript.Result result = join(single("stranger", 2));

		assertThat(result.room().orElseThrow().tokens()).containsExactly("a1", "a2", "stranger");
		assertThat(redis.opsForZSet().range(QUEUE.key(), 0, -1)).containsExactly(single("partner", 1).member());
	}

	@Test
	void theSinglesRecentPartnerListNamesEitherMemberAndKeepsThemApart() {
		join(party("a1", "a2", 0));
		String until = String.valueOf(this.start.plus(Duration.ofMinutes(30)).toEpochMilli());

		FormRoomScript.Result kept = script.join(QUEUE, single("partner", 1), RecentPartners.idOf("a2") + ":" + until,
				this.start.plusSeconds(1));

		assertThat(kept.room()).isEmpty();
		assertThat(join(single("stranger", 2)).room().orElseThrow().tokens()).containsExactly("a1", "a2", "stranger");
	}

	@Test
	void aPersonAloneWhoCannotFillARoomWithTheNextAloneTakesTheOldestPartyInstead() {
		String until = String.valueOf(this.start.plus(Duration.ofMinutes(30)).toEpochMilli());
		assertThat(join(single("first", 0)).room()).isEmpty();
		script.join(QUEUE, single("partner", 1), RecentPartners.idOf("a2") + ":" + until, this.start.plusSeconds(1));

		FormRoomScript.Result result = join(party("a1", "a2", 2));

		assertThat(result.room().orElseThrow().tokens()).containsExactly("first", "a1", "a2");
		assertThat(redis.opsForZSet().range(QUEUE.key(), 0, -1)).containsExactly(single("partner", 1).member());
	}

	FormRoomScript.Result join(QueueEntry entry) {
		return script.join(QUEUE, entry, "", entry.since());
	}

	QueueEntry party(String creator, String member, int second) {
		return new QueueEntry(creator,
				QueueEntry.newPartyJoinId("203.0.113.7", List.of(QUEUE.topicId()), creator, member, "203.0.113.8"),
				this.start.plusSeconds(second));
	}

	QueueEntry single(String token, int second) {
		return new QueueEntry(token, "join-" + token + ".", this.start.plusSeconds(second));
	}

}
