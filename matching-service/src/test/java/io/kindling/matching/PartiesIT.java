package io.kindling.matching;

import java.time.Duration;
import java.util.List;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Parties of two through the HTTP API on real Redis and MariaDB, two instances (each call
 * of a party's two members on another instance): a party is made and joined with its
 * code, waits as one ticket of two, is seated whole with one person alone in a room of
 * three, never with another party, never alone by the fallback; either member leaves for
 * both while waiting, for itself from a room; bans and recent partners count for both.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class PartiesIT {

	@RegisterExtension
	static final TwoInstances.PerClass twoInstances = new TwoInstances.PerClass();

	TwoInstances instances;

	long lastConversation;

	@BeforeEach
	void instances() {
		this.instances = twoInstances.get();
		this.lastConversation = RoomFeatures.lastConversationId(this.instances.jdbc);
	}

	@Test
	void aPartyIsMadeWithACodeToReadAloudAndTakesOneMoreMemberOnly() {
		String creator = this.instances.a.session();
		Response made = this.instances.a.send("POST", "/api/parties", creator, null);
		assertThat(made.status()).as(made.body()).isEqualTo(201);
		String code = made.field("code");
		assertThat(code).matches("[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}");
		assertThat(made.field("party_id")).matches("[A-Za-z0-9_-]{22}");

		String member = this.instances.b.session();
		Response joined = addMember(this.instances.b, member, code.toLowerCase());
		assertThat(joined.status()).as(joined.body()).isEqualTo(200);
		assertThat(joined.field("party_id")).isEqualTo(made.field("party_id"));
		assertThat(joined.json().get("members").asInt()).isEqualTo(2);
		assertThat(joined.body()).doesNotContain(creator).doesNotContain(member);

		RoomFeatures.assertProblem(addMember(this.instances.a, this.instances.a.session(), code), 409, "party-full");
		assertThat(addMember(this.instances.a, member, code).body()).as("the member again").isEqualTo(joined.body());
		assertThat(addMember(this.instances.a, creator, code).body()).as("the creator").isEqualTo(joined.body());
		RoomFeatures.assertProblem(addMember(this.instances.a, member, "222222"), 404, "no-such-party");
		RoomFeatures.assertProblem(addMember(this.instances.a, member, "not-a-code"), 404, "no-such-party");
	}

	@Test
	void aPartyExpiresPartyTtlAfterItsLastChange() {
		String creator = this.instances.a.session();
		String code = this.instances.a.send("POST", "/api/parties", creator, null).field("code");
		long ttl = this.instances.redis.getExpire("matching:party-code:{" + code + "}");
		assertThat(ttl).as("party-ttl, 10 min, in seconds").isBetween(590L, 600L);
		this.instances.redis.delete("matching:party-code:{" + code + "}");

		RoomFeatures.assertProblem(addMember(this.instances.b, this.instances.b.session(), code), 404, "no-such-party");
	}

	@Test
	void aPartyWaitsAsOneTicketAndARoomOfThreeSeatsItWithOnePersonAlone() throws Exception {
		Party party = party();
		EventStream memberStream = this.instances.a.http()
			.events(Request.get("/api/matching/events").bearer(party.member))
			.awaitFirstLine(":subscribed");

		Response waits = joinFor(this.instances.a, party, 1);
		assertThat(waits.status()).as(waits.body()).isEqualTo(202);
		Response memberWaits = this.instances.b.status(party.member);
		assertThat(memberWaits.field("status")).isEqualTo("waiting");
		assertThat(memberWaits.field("waiting_since")).isEqualTo(waits.field("waiting_since"));
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 3))).as("one ticket").isOne();
		RoomFeatures.assertProblem(this.instances.b.join(party.member, 1, 3), 409, "already-joined");
		RoomFeatures.assertProblem(this.instances.b.join(party.member, 2, 2), 409, "already-joined");

		String single = this.instances.b.session();
		Response matched = this.instances.b.join(single, 1, 3);

		assertThat(matched.status()).as(matched.body()).isEqualTo(200);
		assertThat(matched.json().get("room_type").asInt()).isEqualTo(3);
		assertThat(this.instances.a.status(party.creator).body()).isEqualTo(matched.body());
		assertThat(this.instances.b.status(party.member).body()).isEqualTo(matched.body());
		ServerSentEvent pushed = memberStream.nextEvent("matched");
		assertThat(Api.JSON.readTree(pushed.data())).isEqualTo(matched.json());
		memberStream.close();
		assertThat(participants(matched)).containsExactlyInAnyOrder(Session.keyOf(party.creator),
				Session.keyOf(party.member), Session.keyOf(single));
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 3))).isZero();
	}

	@Test
	void twoPartiesNeverShareARoomAndEachTakesTheNextPersonAlone() {
		Party first = party();
		Party second = party();
		assertThat(joinFor(this.instances.a, first, 2).status()).isEqualTo(202);
		this.instances.clock.advance(Duration.ofSeconds(1));
		assertThat(joinFor(this.instances.b, second, 2).status()).isEqualTo(202);
		assertThat(this.instances.a.status(first.member).field("status")).isEqualTo("waiting");
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(2, 3))).isEqualTo(2);

		Response withFirst = this.instances.a.join(this.instances.a.session(), 2, 3);
		assertThat(withFirst.status()).as("the older party first").isEqualTo(200);
		assertThat(this.instances.b.status(first.member).body()).isEqualTo(withFirst.body());
		assertThat(this.instances.a.status(second.creator).field("status")).isEqualTo("waiting");
		assertThat(this.instances.a.status(second.member).field("status")).isEqualTo("waiting");

		Response withSecond = this.instances.b.join(this.instances.b.session(), 2, 3);
		assertThat(withSecond.status()).isEqualTo(200);
		assertThat(this.instances.a.status(second.member).body()).isEqualTo(withSecond.body());
		assertThat(conversationSizes()).containsExactly(3, 3);
	}

	@Test
	void theFallbackToTwoNeverSeatsAPartyAloneNorTwoParties() {
		Party first = party();
		assertThat(joinFor(this.instances.a, first, 3).status()).isEqualTo(202);
		this.instances.clock.advance(Duration.ofSeconds(61));

		assertThat(this.instances.a.status(first.creator).field("status")).as("past fallback-after")
			.isEqualTo("waiting");
		Party second = party();
		assertThat(joinFor(this.instances.b, second, 3).status()).isEqualTo(202);
		this.instances.clock.advance(Duration.ofSeconds(61));
		assertThat(this.instances.b.status(second.member).field("status")).isEqualTo("waiting");
		assertThat(this.instances.a.status(first.member).field("status")).isEqualTo("waiting");

		// two people alone past the fallback form their room of two beside the parties
		String one = this.instances.a.session();
		String two = this.instances.b.session();
		String three = this.instances.b.session();
		assertThat(this.instances.a.join(one, 3, 3).status()).as("with the first party").isEqualTo(200);
		assertThat(this.instances.a.join(two, 3, 3).status()).as("with the second party").isEqualTo(200);
		assertThat(this.instances.b.join(three, 3, 3).status()).isEqualTo(202);
		String four = this.instances.b.session();
		assertThat(this.instances.b.join(four, 3, 3).status()).isEqualTo(202);
		this.instances.clock.advance(Duration.ofSeconds(61));
		assertThat(this.instances.b.status(three).json().get("room_type").asInt()).isEqualTo(2);
		assertThat(conversationSizes()).containsExactly(3, 3, 2);
	}

	@Test
	void aPartyJoinsOnlyByItsCreatorOnlyWhenCompleteOnlyForThreeAndNeverFallsBackToAnyone() {
		Party party = party();
		RoomFeatures.assertProblem(join(this.instances.a, party.creator, 1, 2, party.id), 400, "party-size");
		RoomFeatures.assertProblem(
				this.instances.a.send("POST", "/api/matching", party.creator,
						"{\"topic_id\": 1, \"size\": 3, \"party_id\": \"" + party.id + "\", \"fallback_after_s\": 30}"),
				400, "party-fallback");
		RoomFeatures.assertProblem(join(this.instances.a, party.member, 1, 3, party.id), 403, "not-party-creator");
		String stranger = this.instances.a.session();
		RoomFeatures.assertProblem(join(this.instances.a, stranger, 1, 3, party.id), 404, "no-such-party");
		RoomFeatures.assertProblem(join(this.instances.a, party.creator, 1, 3, "AAAAAAAAAAAAAAAAAAAAAA"), 404,
				"no-such-party");
		String alone = this.instances.a.session();
		String lonely = this.instances.a.send("POST", "/api/parties", alone, null).field("party_id");
		RoomFeatures.assertProblem(join(this.instances.a, alone, 1, 3, lonely), 409, "party-incomplete");

		for (String token : List.of(party.creator, party.member, stranger, alone)) {
			assertThat(this.instances.a.status(token).field("status")).isEqualTo("idle");
		}
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 3))).isZero();
		assertThat(this.instances.redis.opsForZSet().size(MatchQueue.anyTopic(3).key())).isZero();
	}

	@Test
	void aMemberAlreadyWaitingStopsThePartysJoinAndChangesNothing() {
		Party party = party();
		assertThat(this.instances.b.join(party.member, 4, 2).status()).isEqualTo(202);

		RoomFeatures.assertProblem(joinFor(this.instances.a, party, 1), 409, "already-joined");

		assertThat(this.instances.a.status(party.creator).field("status")).isEqualTo("idle");
		assertThat(this.instances.a.status(party.member).json().get("topic_id").asLong()).isEqualTo(4);
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 3))).isZero();
	}

	@Test
	void eitherMemberLeavingTakesTheWholePartyOutOfTheQueue() {
		for (boolean memberLeaves : List.of(true, false)) {
			Party party = party();
			assertThat(joinFor(this.instances.a, party, 42).status()).isEqualTo(202);

			assertThat(this.instances.b.leave(memberLeaves ? party.member : party.creator).status()).isEqualTo(204);

			assertThat(this.instances.a.status(party.creator).field("status")).isEqualTo("idle");
			assertThat(this.instances.b.status(party.member).field("status")).isEqualTo("idle");
			assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(42, 3))).isZero();
		}
	}

	@Test
	void leavingARoomLeavesForThatMemberOnly() {
		Party party = party();
		joinFor(this.instances.a, party, 1);
		Response matched = this.instances.b.join(this.instances.b.session(), 1, 3);
		assertThat(matched.status()).isEqualTo(200);

		assertThat(this.instances.b.leave(party.member).status()).isEqualTo(204);

		assertThat(this.instances.a.status(party.member).field("status")).isEqualTo("idle");
		assertThat(this.instances.a.status(party.creator).body()).isEqualTo(matched.body());
	}

	@Test
	void aPartyWhoseMembersAreBothOutLivesPartyTtlMoreNotTheLifetimeItsJoinGaveIt() {
		Party party = party();
		String partyKey = "matching:party:{" + party.id + "}";
		String codeKey = "matching:party-code:{" + party.code + "}";
		assertThat(joinFor(this.instances.a, party, 1).status()).isEqualTo(202);
		assertThat(this.instances.redis.getExpire(partyKey)).as("wait-timeout + room-ttl + party-ttl, 25 min")
			.isBetween(1490L, 1500L);
		assertThat(this.instances.b.join(this.instances.b.session(), 1, 3).status()).isEqualTo(200);

		assertThat(this.instances.b.leave(party.member).status()).isEqualTo(204);
		assertThat(this.instances.redis.getExpire(partyKey)).as("the creator still sits in the room")
			.isGreaterThan(1400L);
		assertThat(this.instances.a.leave(party.creator).status()).isEqualTo(204);
		for (String key : List.of(partyKey, codeKey)) {
			assertThat(this.instances.redis.getExpire(key)).as("party-ttl from the last leave: " + key)
				.isBetween(590L, 600L);
		}

		// it joins again meanwhile, and lives through that wait and room again, until a
		// leave takes both out of the queue
		assertThat(joinFor(this.instances.b, party, 1).status()).isEqualTo(202);
		assertThat(this.instances.redis.getExpire(partyKey)).isBetween(1490L, 1500L);
		assertThat(this.instances.a.leave(party.member).status()).isEqualTo(204);
		assertThat(this.instances.redis.getExpire(partyKey)).isBetween(590L, 600L);
		assertThat(this.instances.redis.getExpire(codeKey)).isBetween(590L, 600L);
	}

	@Test
	void aBannedMemberStopsThePartysJoinAndABanWhileItWaitsTakesBothOut() {
		Party party = party();
		assertThat(banSession(party.member).status()).isEqualTo(201);

		RoomFeatures.assertProblem(joinFor(this.instances.a, party, 1), 403, "banned");
		assertThat(this.instances.a.status(party.creator).field("status")).isEqualTo("idle");

		Party waiting = party();
		assertThat(joinFor(this.instances.a, waiting, 1).status()).isEqualTo(202);
		assertThat(banSession(waiting.member).status()).isEqualTo(201);

		// the other instance hears of the ban on its subscription
		await().atMost(Duration.ofSeconds(5))
			.until(() -> "idle".equals(this.instances.b.status(waiting.creator).field("status")));
		assertThat(this.instances.b.status(waiting.member).field("status")).isEqualTo("idle");
		assertThat(this.instances.redis.opsForZSet().size(RedisKeys.queue(1, 3))).isZero();
	}

	@Test
	void aRecentPartnerOfEitherMemberWaitsForSomeoneElse() {
		Party party = party();
		String partner = this.instances.b.session();
		// the member and the partner shared a room of two
		RoomFeatures.shareARoom(this.instances.a, party.member, this.instances.b, partner, 2);

		assertThat(joinFor(this.instances.a, party, 1).status()).isEqualTo(202);
		assertThat(this.instances.b.join(partner, 1, 3).status()).as("kept apart from the party").isEqualTo(202);

		String stranger = this.instances.a.session();
		Response matched = this.instances.a.join(stranger, 1, 3);
		assertThat(matched.status()).isEqualTo(200);
		assertThat(participants(matched)).containsExactlyInAnyOrder(Session.keyOf(party.creator),
				Session.keyOf(party.member), Session.keyOf(stranger));
		assertThat(this.instances.b.status(partner).field("status")).isEqualTo("waiting");
	}

	@Test
	void guessingCodesIsBoundedPerAddress() {
		String guesser = this.instances.a.session();
		for (int i = 0; i < 10; i++) {
			RoomFeatures.assertProblem(addMember(this.instances.a, guesser, "22222" + "23456789".charAt(i % 8)), 404,
					"no-such-party");
		}

		Response limited = addMember(this.instances.a, guesser, "333333");

		RoomFeatures.assertProblem(limited, 429, "rate-limited");
		assertThat(limited.header("Retry-After")).isPresent();
	}

	record Party(String id, String code, String creator, String member) {

	}

	/** A party made on one instance and joined on the other. */
	Party party() {
		String creator = this.instances.a.session();
		Response made = this.instances.a.send("POST", "/api/parties", creator, null);
		assertThat(made.status()).as(made.body()).isEqualTo(201);
		String member = this.instances.b.session();
		Response joined = addMember(this.instances.b, member, made.field("code"));
		assertThat(joined.status()).as(joined.body()).isEqualTo(200);
		return new Party(made.field("party_id"), made.field("code"), creator, member);
	}

	static Response addMember(Api api, String token, String code) {
		return api.send("POST", "/api/parties/" + code + "/members", token, null);
	}

	static Response joinFor(Api api, Party party, long topicId) {
		return join(api, party.creator, topicId, 3, party.id);
	}

	static Response join(Api api, String token, long topicId, int size, String partyId) {
		return api.send("POST", "/api/matching", token,
				"{\"topic_id\": " + topicId + ", \"size\": " + size + ", \"party_id\": \"" + partyId + "\"}");
	}

	Response banSession(String token) {
		return RoomFeatures.admin(this.instances.a, "POST", "/api/admin/bans",
				"{\"ban_type\":\"SESSION\",\"value\":\"" + Session.keyOf(token) + "\"}");
	}

	List<String> participants(Response matched) {
		return this.instances.jdbc
			.sql("SELECT participant_key FROM conversation_participants WHERE conversation_id = :id")
			.param("id", matched.json().get("conversation_id").asLong())
			.query(String.class)
			.list();
	}

	/** The room type of every conversation, oldest first. */
	List<Integer> conversationSizes() {
		return this.instances.jdbc.sql("SELECT room_type FROM conversations WHERE id > :after ORDER BY id")
			.param("after", this.lastConversation)
			.query(Integer.class)
			.list();
	}

}
