package io.kindling.matching;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A room's people talking over its socket ({@code GET /ws/rooms/{conversation_id}}), on
 * two instances: one order for everyone whichever instance each is on, resuming with
 * {@code ?after=}, the history, error frames that leave the socket open, the rate, the
 * frame limit, every refusal before the upgrade, leaving (and the last leave ending the
 * room), and a report's evidence.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class RoomChatIT {

	@RegisterExtension
	static final TwoInstances.PerClass twoInstances = new TwoInstances.PerClass("--kindling.matching.chat.history=5");

	TwoInstances instances;

	@BeforeEach
	void instances() {
		this.instances = twoInstances.get();
	}

	@Test
	void twoPeopleOnTwoInstancesTalkAndBothSeeOneOrder() throws Exception {
		Room room = room(1);
		try (RoomSocket ana = RoomSocket.open(port(this.instances.instanceA), room.id(), room.first(), "");
				RoomSocket ben = RoomSocket.open(port(this.instances.instanceB), room.id(), room.second(), "")) {
			assertThat(ana.next("welcome").toString())
				.isEqualTo("{\"type\":\"welcome\",\"you\":\"A\",\"members\":[\"A\",\"B\"]}");
			assertThat(ben.next("welcome").get("you").asString()).isEqualTo("B");

			ana.say("hello Ben", "a-1");
			JsonNode anasCopy = ana.next("message");
			JsonNode bensCopy = ben.next("message");
			assertThat(anasCopy.get("client_message_id").asString()).isEqualTo("a-1");
			assertThat(bensCopy.has("client_message_id")).as("only the sender's copy carries it").isFalse();
			assertThat(bensCopy.get("id")).isEqualTo(anasCopy.get("id"));
			assertThat(bensCopy.get("from").asString()).isEqualTo("A");
			assertThat(bensCopy.get("text").asString()).isEqualTo("hello Ben");
			assertThat(bensCopy.get("sent_at").asString()).isEqualTo(this.instances.clock.instant().toString());

			// both talk at once: each sees every message, in the same order
			for (int i = 0; i < 4; i++) {
				ana.say("ana " + i, "a-" + (i + 2));
				ben.say("ben " + i, "b-" + i);
			}
			List<String> anaSaw = texts(ana, 8);
			List<String> benSaw = texts(ben, 8);
			assertThat(anaSaw).isEqualTo(benSaw)
				.containsSubsequence("ana 0", "ana 1", "ana 2", "ana 3")
				.containsSubsequence("ben 0", "ben 1", "ben 2", "ben 3");
			ana.assertNothingWithin(Duration.ofMillis(500));
			ben.assertNothingWithin(Duration.ZERO);
		}
	}

	@Test
	void aReconnectWithAfterGetsExactlyWhatCameAfterAndOneWithoutItTheHistory() throws Exception {
		Room room = room(2);
		List<JsonNode> sent = new ArrayList<>();
		try (RoomSocket ana = RoomSocket.open(port(this.instances.instanceA), room.id(), room.first(), "")) {
			ana.next("welcome");
			for (int i = 0; i < 8; i++) {
				ana.say("m" + i, "m" + i);
				sent.add(ana.next("message"));
			}
		}
		try (RoomSocket again = RoomSocket.open(port(this.instances.instanceB), room.id(), room.first(),
				"?after=" + sent.get(5).get("id").asString())) {
			again.next("welcome");
			assertThat(again.next("message").get("id")).isEqualTo(sent.get(6).get("id"));
			assertThat(again.next("message").get("id")).isEqualTo(sent.get(7).get("id"));
			again.assertNothingWithin(Duration.ofMillis(500));
		}
		// without after: the last chat.history (5) entries
		try (RoomSocket ben = RoomSocket.open(port(this.instances.instanceB), room.id(), room.second(), "")) {
			ben.next("welcome");
			assertThat(texts(ben, 5)).containsExactly("m3", "m4", "m5", "m6", "m7");
			ben.assertNothingWithin(Duration.ofMillis(500));
		}
	}

	@Test
	void aBadFrameGetsAnErrorFrameAndTheSocketStaysOpenAsDoesOnePastTheRate() throws Exception {
		Room room = room(3);
		try (RoomSocket ana = RoomSocket.open(port(this.instances.instanceA), room.id(), room.first(), "");
				RoomSocket ben = RoomSocket.open(port(this.instances.instanceB), room.id(), room.second(), "")) {
			ana.next("welcome");
			ben.next("welcome");
			ana.send("not json");
			assertError(ana.next("error"), 400, "Unreadable request body", null);
			ana.send("{\"type\":\"typing\"}");
			assertError(ana.next("error"), 400, "Invalid request", null);
			ana.say("x".repeat(1001), "long");
			assertError(ana.next("error"), 400, "Bad message", "long");
			ana.say("bell\u0007", "bell");
			assertError(ana.next("error"), 400, "Bad message", "bell");
			ben.assertNothingWithin(Duration.ofMillis(300));

			// the clock stands still: a burst of 10, then 429
			for (int i = 0; i < 10; i++) {
				ana.say("burst " + i, "burst-" + i);
			}
			assertThat(texts(ben, 10)).hasSize(10);
			assertThat(texts(ana, 10)).hasSize(10);
			ana.say("one too many", "extra");
			assertError(ana.next("error"), 429, "Too many requests", "extra");
			// a resend of an id it used is not a second message
			this.instances.clock.advance(Duration.ofSeconds(1));
			ana.say("burst 0", "burst-0");
			ana.say("still open", "after");
			assertThat(ben.next("message").get("text").asString()).isEqualTo("still open");
			assertThat(ana.next("message").get("text").asString()).isEqualTo("still open");
		}
	}

	@Test
	void theLongestMessageWrittenAsJsonEscapesGoesThroughAndAFrameOverTheLimitClosesTheSocket() throws Exception {
		Room room = room(1);
		String emoji = new String(Character.toChars(0x1F600));
		// 1,000 code points, each written as two JSON escapes: 12,000 bytes, past the
		// container's default buffer of 8,192
		String escaped = "\\ud83d\\ude00".repeat(1000);
		try (RoomSocket ana = RoomSocket.open(port(this.instances.instanceA), room.id(), room.first(), "");
				RoomSocket ben = RoomSocket.open(port(this.instances.instanceB), room.id(), room.second(), "")) {
			ana.next("welcome");
			ben.next("welcome");
			ana.send("{\"type\":\"message\",\"text\":\"" + escaped + "\",\"client_message_id\":\"long\"}");
			assertThat(ben.next("message").get("text").asString()).isEqualTo(emoji.repeat(1000));
			assertThat(ana.next("message").get("client_message_id").asString()).isEqualTo("long");

			// past the socket's limit of 16 KiB
			ana.send(
					"{\"type\":\"message\",\"text\":\"" + "x".repeat(16 * 1024) + "\",\"client_message_id\":\"huge\"}");
			assertThat(ana.awaitClosed()).as("message too big").isEqualTo(1009);
			ben.assertNothingWithin(Duration.ofMillis(300));
		}
	}

	@Test
	void refusalsComeBeforeTheUpgradeAsProblemDetails() throws Exception {
		Room room = room(4);
		String path = "/ws/rooms/" + room.id();
		assertProblem(this.instances.a.send("GET", path, room.first(), null), 400, "invalid-request");
		assertProblem(this.instances.a.http().send(RoomSocket.handshake(path, null)), 401, "unauthenticated");
		assertProblem(this.instances.a.http().send(RoomSocket.handshake(path, this.instances.a.session())), 403,
				"not-in-room");
		assertProblem(this.instances.b.http().send(RoomSocket.handshake("/ws/rooms/987654321", room.first())), 404,
				"no-such-room");
		assertProblem(this.instances.b.http().send(RoomSocket.handshake(path + "?after=yesterday", room.first())), 400,
				"invalid-request");

		// a browser's socket opens with a ticket, once
		Response issued = this.instances.b.send("POST", "/api/matching/events/tickets", room.second(), null);
		String ticket = issued.json().get("ticket").asString();
		try (RoomSocket ben = RoomSocket.open(port(this.instances.instanceA), room.id(), null, "?ticket=" + ticket)) {
			assertThat(ben.next("welcome").get("you").asString()).isEqualTo("B");
		}
		assertProblem(this.instances.a.http().send(RoomSocket.handshake(path + "?ticket=" + ticket, null)), 401,
				"unauthenticated");

		// once the first has left, the room is gone for them, not for the other
		assertThat(this.instances.a.leave(room.first()).status()).isEqualTo(204);
		assertProblem(this.instances.a.http().send(RoomSocket.handshake(path, room.first())), 410, "room-ended");
		try (RoomSocket ben = RoomSocket.open(port(this.instances.instanceA), room.id(), room.second(), "")) {
			ben.next("welcome");
		}
	}

	@Test
	void leavingClosesTheLeaversSocketsAndTellsTheOthersAndTheLastLeaveEndsTheRoom() throws Exception {
		Room room = room(1);
		try (RoomSocket ana = RoomSocket.open(port(this.instances.instanceA), room.id(), room.first(), "");
				RoomSocket anasPhone = RoomSocket.open(port(this.instances.instanceB), room.id(), room.first(), "");
				RoomSocket ben = RoomSocket.open(port(this.instances.instanceB), room.id(), room.second(), "")) {
			ana.next("welcome");
			anasPhone.next("welcome");
			ben.next("welcome");

			assertThat(this.instances.b.leave(room.first()).status()).isEqualTo(204);
			assertThat(ben.next("left").get("member").asString()).isEqualTo("A");
			assertThat(ana.next("left").get("member").asString()).isEqualTo("A");
			assertThat(anasPhone.next("left").get("member").asString()).isEqualTo("A");
			assertThat(ana.awaitClosed()).as("closed normally").isEqualTo(1000);
			assertThat(anasPhone.awaitClosed()).isEqualTo(1000);
			assertThat(ben.isClosed()).isFalse();
			assertThat(ended(room)).as("someone is still in the room").isFalse();

			ben.say("still here", "b-1");
			assertThat(ben.next("message").get("text").asString()).isEqualTo("still here");
			// a second leave of the same member tells nobody again
			assertThat(this.instances.a.leave(room.first()).status()).isEqualTo(204);
			ben.assertNothingWithin(Duration.ofMillis(300));

			assertThat(this.instances.a.leave(room.second()).status()).isEqualTo(204);
			assertThat(ben.next("left").get("member").asString()).isEqualTo("B");
			assertThat(ben.awaitClosed()).isEqualTo(1000);
		}
		assertThat(ended(room)).as("the last leave ended it").isTrue();
		Long ttl = this.instances.redis.getExpire("matching:chat:{" + room.id() + "}");
		// the grace (600 s) from the last leave, no longer the seats' end plus the grace
		// (1,200 s); the test's clock is at most a second ahead of Redis's
		assertThat(ttl).as("the messages stay for the grace from the last leave").isBetween(1L, 601L);
		for (String member : List.of(room.first(), room.second())) {
			assertProblem(this.instances.a.http().send(RoomSocket.handshake("/ws/rooms/" + room.id(), member)), 410,
					"room-ended");
		}
	}

	@Test
	void aReportKeepsTheReportedMembersLastMessagesAsEvidence() throws Exception {
		Room room = room(2);
		try (RoomSocket ana = RoomSocket.open(port(this.instances.instanceA), room.id(), room.first(), "");
				RoomSocket ben = RoomSocket.open(port(this.instances.instanceB), room.id(), room.second(), "")) {
			ana.next("welcome");
			ben.next("welcome");
			// each heard before the next is said: two senders' messages at once may come
			// in either order
			ana.say("first", "a-1");
			assertThat(ben.next("message").get("text").asString()).isEqualTo("first");
			ben.say("hello", "b-1");
			assertThat(ben.next("message").get("text").asString()).isEqualTo("hello");
			ana.say("second", "a-2");
			assertThat(ben.next("message").get("text").asString()).isEqualTo("second");
		}
		Response reported = this.instances.a.send("POST", "/api/matching/reports", room.second(),
				"{\"reason\":\"HARASSMENT\"}");
		assertThat(reported.status()).as(reported.body()).isEqualTo(201);
		// the room's messages go from Redis after the grace; the evidence stays with the
		// report
		this.instances.freshStores();
		List<String> evidence = this.instances.jdbc.sql("""
				SELECT CONCAT(sender, ': ', text) FROM room_report_messages
				WHERE conversation_id = :id ORDER BY entry_id
				""").param("id", room.id()).query(String.class).list();
		assertThat(evidence).containsExactly("A: first", "A: second");
	}

	private boolean ended(Room room) {
		return this.instances.jdbc.sql("SELECT ended_at IS NOT NULL FROM conversations WHERE id = :id")
			.param("id", room.id())
			.query(Boolean.class)
			.single();
	}

	private static void assertProblem(Response response, int status, String type) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("Content-Type").orElse("")).startsWith("application/problem+json");
		assertThat(response.json().get("type").asString()).isEqualTo("https://kindling.io/problems/" + type);
	}

	private List<String> texts(RoomSocket socket, int count) throws InterruptedException {
		List<String> texts = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			texts.add(socket.next("message").get("text").asString());
		}
		return texts;
	}

	private static JsonNode assertError(JsonNode frame, int status, String title, String clientMessageId) {
		assertThat(frame.get("status").asInt()).as("%s", frame).isEqualTo(status);
		assertThat(frame.get("title").asString()).isEqualTo(title);
		assertThat(frame.get("detail").asString()).isNotBlank();
		if (clientMessageId == null) {
			assertThat(frame.has("client_message_id")).isFalse();
		}
		else {
			assertThat(frame.get("client_message_id").asString()).isEqualTo(clientMessageId);
		}
		return frame;
	}

	/**
	 * Two sessions in a new room of two, formed on instance B: the first (seat A) waited
	 * a millisecond longer.
	 */
	private Room room(long topic) {
		String first = this.instances.a.session();
		String second = this.instances.b.session();
		assertThat(this.instances.a.join(first, topic, 2).status()).isEqualTo(202);
		this.instances.clock.advance(Duration.ofMillis(1));
		Response formed = this.instances.b.join(second, topic, 2);
		assertThat(formed.status()).as(formed.body()).isEqualTo(200);
		return new Room(formed.json().get("conversation_id").asLong(), first, second);
	}

	private static int port(org.springframework.context.ConfigurableApplicationContext instance) {
		return Integer.parseInt(instance.getEnvironment().getProperty("local.server.port", "0"));
	}

	record Room(long id, String first, String second) {

	}

}
