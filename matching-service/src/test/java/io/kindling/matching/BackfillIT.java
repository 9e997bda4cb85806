package io.kindling.matching;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.matching.queue.ClaimStore;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.OpenSeat;
import io.kindling.matching.queue.QueueEntry;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.queue.SwapClaimScript;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.room.RoomClaims;
import io.kindling.matching.room.RoomLedger;
import io.kindling.matching.session.Session;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Backfill through the HTTP API on real Redis and MariaDB, two instances: a room of three
 * that loses someone within the window seats the next single joiner of its topic, once,
 * never a recent partner of its people nor a banned session, and tells the others on
 * their streams and sockets; two joiners racing on two instances get one seat.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class BackfillIT {

	static final long TOPIC = 1;

	@RegisterExtension
	static final TwoInstances.PerClass twoInstances = new TwoInstances.PerClass();

	TwoInstances instances;

	@BeforeEach
	void instances() {
		this.instances = twoInstances.get();
	}

	@Test
	void aNewcomerTakesTheSeatSomeoneLeftAndTheOthersAreToldOnTheirStreamsAndSockets() throws Exception {
		Room room = roomOfThree();
		EventStream bensStream = this.instances.a.http()
			.events(io.kindling.infra.http.Request.get("/api/matching/events").bearer(room.b()))
			.awaitFirstLine(":subscribed");
		assertThat(bensStream.nextEvent("matched").data()).contains(room.id());
		try (RoomSocket bensSocket = RoomSocket.open(port(this.instances.instanceB), room.conversationId(), room.b(),
				"")) {
			assertThat(bensSocket.next("welcome").get("members").toString()).isEqualTo("[\"A\",\"B\",\"C\"]");
			assertThat(this.instances.b.leave(room.a()).status()).isEqualTo(204);
			assertThat(bensSocket.next("left").get("member").asString()).isEqualTo("A");
			this.instances.clock.advance(Duration.ofSeconds(30));

			String dan = this.instances.b.session();
			Response seated = this.instances.b.join(dan, TOPIC, 3);

			assertThat(seated.status()).as(seated.body()).isEqualTo(200);
			JsonNode body = seated.json();
			assertThat(body.get("status").asString()).isEqualTo("matched");
			assertThat(body.get("backfilled").asBoolean()).isTrue();
			assertThat(body.get("room_id").asString()).isEqualTo(room.id());
			assertThat(body.get("conversation_id").asLong()).isEqualTo(room.conversationId());
			assertThat(body.get("room_type").asInt()).isEqualTo(3);
			assertThat(body.get("matched_at").asString()).isEqualTo(this.instances.clock.instant().toString());
			assertThat(this.instances.a.status(dan).body()).as("GET answers the same").isEqualTo(seated.body());
			assertThat(this.instances.a.status(room.b()).json().has("backfilled")).isFalse();

			ServerSentEvent joined = bensStream.nextEvent("member_joined");
			assertThat(Api.JSON.readTree(joined.data()).toString())
				.isEqualTo("{\"room_id\":\"" + room.id() + "\",\"conversation_id\":" + room.conversationId()
						+ ",\"room_type\":3,\"topic_id\":1,\"members\":3}");
			assertThat(bensSocket.next("joined").get("member").asString()).as("the fourth to sit in it").isEqualTo("D");
			try (RoomSocket dansSocket = RoomSocket.open(port(this.instances.instanceA), room.conversationId(), dan,
					"")) {
				JsonNode welcome = dansSocket.next("welcome");
				assertThat(welcome.get("you").asString()).isEqualTo("D");
				assertThat(welcome.get("members").toString()).isEqualTo("[\"B\",\"C\",\"D\"]");
			}
		}
		bensStream.close();
		assertThat(this.instances.jdbc.sql("SELECT COUNT(*) FROM conversation_participants WHERE conversation_id = :id")
			.param("id", room.conversationId())
			.query(Long.class)
			.single()).isEqualTo(4);
		assertThat(this.instances.jdbc.sql("SELECT backfilled_at IS NOT NULL FROM conversations WHERE id = :id")
			.param("id", room.conversationId())
			.query(Boolean.class)
			.single()).isTrue();
		assertThat(this.instances.jdbc
			.sql("SELECT COUNT(*) FROM room_outbox WHERE event_type = 'ROOM_BACKFILLED' AND event_key = :room")
			.param("room", room.id())
			.query(Long.class)
			.single()).isOne();
	}

	@Test
	void aNewcomerWhoseClaimACrashLeftBeingWrittenIsRestoredFromMySqlStillBackfilled() {
		Room room = roomOfThree();
		assertThat(this.instances.b.leave(room.a()).status()).isEqualTo(204);
		this.instances.clock.advance(Duration.ofSeconds(30));
		String dan = this.instances.b.session();
		Response seated = this.instances.b.join(dan, TOPIC, 3);
		assertThat(seated.status()).as(seated.body()).isEqualTo(200);
		assertThat(seated.json().get("backfilled").asBoolean()).isTrue();
		String bens = this.instances.a.status(room.b()).body();
		// the process died between the backfill's transaction and the claim's
		// confirmation: the claim is left being written, with its pending TTL
		Instant seatedAt = Instant.parse(seated.json().get("matched_at").asString());
		TokenState.Forming beingWritten = new TokenState.Forming(new MatchQueue(TOPIC, 3), seatedAt, room.id(), 3,
				seatedAt);
		assertThat(this.instances.instanceA.getBean(SwapClaimScript.class)
			.swap(new SwapClaimScript.Swap(dan, beingWritten, beingWritten, Duration.ofSeconds(30)))).isTrue();
		assertThat(this.instances.a.status(dan).json().get("status").asString()).as("its seating may still be going on")
			.isEqualTo("waiting");
		this.instances.clock.advance(RoomClaims.ORPHAN_GRACE);

		assertThat(this.instances.a.status(dan).body()).as("settled from MySQL").isEqualTo(seated.body());
		// a failover lost the claims altogether: each is restored from MySQL as it was
		assertThat(this.instances.redis.delete(RedisKeys.claim(dan))).isTrue();
		assertThat(this.instances.redis.delete(RedisKeys.claim(room.b()))).isTrue();
		assertThat(this.instances.b.status(dan).body()).isEqualTo(seated.body());
		assertThat(this.instances.b.status(room.b()).body()).isEqualTo(bens);
	}

	@Test
	void aNewcomerSeatedByAProcessThatDiedBeforeTellingTheRoomIsToldToTheOthersOnceWhenItsClaimIsRestored()
			throws Exception {
		Room room = roomOfThree();
		EventStream bensStream = openStream(this.instances.a, room.b(), null);
		assertThat(bensStream.nextEvent("matched").id()).isEqualTo(room.id());
		try (RoomSocket bensSocket = RoomSocket.open(port(this.instances.instanceB), room.conversationId(), room.b(),
				""); Announcements announcements = Announcements.listen(this.instances.redis)) {
			assertThat(bensSocket.next("welcome").get("members").toString()).isEqualTo("[\"A\",\"B\",\"C\"]");
			assertThat(this.instances.b.leave(room.a()).status()).isEqualTo(204);
			assertThat(bensSocket.next("left").get("member").asString()).isEqualTo("A");
			this.instances.clock.advance(Duration.ofSeconds(30));
			String dan = this.instances.b.session();
			Instant seatedAt = this.instances.clock.instant();

			// the "crashed" process takes the seat, moves Dan's claim into the room being
			// written, commits the backfill's transaction and dies before the claim's
			// confirmation and the announcement
			MatchQueue queue = new MatchQueue(TOPIC, 3);
			OpenSeat seat = this.instances.instanceB.getBean(ClaimStore.class)
				.takeSeat(queue, dan, "", seatedAt)
				.orElseThrow();
			TokenState.Forming beingWritten = new TokenState.Forming(queue, seatedAt, room.id(), 3, seatedAt);
			assertThat(this.instances.instanceB.getBean(SwapClaimScript.class)
				.swap(new SwapClaimScript.Swap(dan, new TokenState.Idle(), beingWritten, Duration.ofSeconds(30))))
				.isTrue();
			this.instances.instanceB.getBean(RoomLedger.class)
				.backfill(seat, new QueueEntry(dan, QueueEntry.newJoinId("127.0.0.1", List.of(TOPIC)), seatedAt),
						seatedAt);
			assertThat(this.instances.jdbc.sql("""
					SELECT c.backfilled_key FROM conversations c
					JOIN seats s ON s.room_id = c.room_id AND s.participant_key = c.backfilled_key
					WHERE c.id = :id AND s.left_at IS NULL
					""").param("id", room.conversationId()).query(String.class).single()).as("seated in MySQL")
				.isEqualTo(Session.keyOf(dan));
			assertThat(this.instances.instanceA.getBean(ClaimStore.class).read(dan)).as("its claim being written")
				.isEqualTo(beingWritten);
			bensStream.assertNoEventWithin(Duration.ofSeconds(1));
			bensSocket.assertNothingWithin(Duration.ZERO);
			assertThat(announcements.heard()).as("nobody told").isEmpty();

			// Dan's next poll, past the grace, on the other instance, restores its claim
			// from MySQL and tells the room
			this.instances.clock.advance(RoomClaims.ORPHAN_GRACE);
			Response restored = this.instances.b.status(dan);

			assertThat(restored.json().get("status").asString()).isEqualTo("matched");
			assertThat(restored.json().get("backfilled").asBoolean()).isTrue();
			assertThat(restored.json().get("matched_at").asString()).isEqualTo(seatedAt.toString());
			ServerSentEvent joined = bensStream.nextEvent("member_joined");
			assertThat(joined.id()).isEqualTo(room.id() + "/member_joined");
			assertThat(Api.JSON.readTree(joined.data()).toString())
				.isEqualTo("{\"room_id\":\"" + room.id() + "\",\"conversation_id\":" + room.conversationId()
						+ ",\"room_type\":3,\"topic_id\":1,\"members\":3}");
			assertThat(bensSocket.next("joined").get("member").asString()).isEqualTo("D");
			assertThat(announcements.next()).contains(room.id());

			// a failover loses Dan's claim: its restore tells the room again, and the
			// room's people see nothing twice
			assertThat(this.instances.redis.delete(RedisKeys.claim(dan))).isTrue();
			assertThat(this.instances.a.status(dan).body()).isEqualTo(restored.body());
			assertThat(announcements.next()).as("told again").contains(room.id());
			bensSocket.assertNothingWithin(Duration.ofSeconds(1));
			bensStream.assertNoEventWithin(Duration.ZERO);
		}
		bensStream.close();
		assertThat(this.instances.jdbc
			.sql("SELECT COUNT(*) FROM room_outbox WHERE event_type = 'ROOM_BACKFILLED' AND event_key = :room")
			.param("room", room.id())
			.query(Long.class)
			.single()).isOne();
	}

	@Test
	void aStreamOpenedAfterTheNewcomerCameIsToldOfItOnceAndAReconnectOnlyWhatItMissed() throws Exception {
		Room room = roomOfThree();
		EventStream bensFirst = openStream(this.instances.a, room.b(), null);
		String roomEventId = bensFirst.nextEvent("matched").id();
		assertThat(roomEventId).isEqualTo(room.id());
		bensFirst.close();
		assertThat(this.instances.b.leave(room.a()).status()).isEqualTo(204);
		this.instances.clock.advance(Duration.ofSeconds(30));
		String dan = this.instances.b.session();
		Response seated = this.instances.b.join(dan, TOPIC, 3);
		assertThat(seated.status()).as(seated.body()).isEqualTo(200);

		// Cy's first stream opens after the newcomer came: the room, then the newcomer
		EventStream cys = openStream(this.instances.b, room.c(), null);
		assertThat(cys.nextEvent("matched").id()).isEqualTo(room.id());
		ServerSentEvent joined = cys.nextEvent("member_joined");
		assertThat(joined.id()).isEqualTo(room.id() + "/member_joined");
		assertThat(Api.JSON.readTree(joined.data()).toString()).isEqualTo("{\"room_id\":\"" + room.id()
				+ "\",\"conversation_id\":" + room.conversationId() + ",\"room_type\":3,\"topic_id\":1,\"members\":3}");
		// Ben, told the room before it, reconnects naming the room: the newcomer only
		EventStream bensBack = openStream(this.instances.b, room.b(), roomEventId);
		ServerSentEvent missed = bensBack.nextEvent("member_joined");
		assertThat(missed.id()).isEqualTo(joined.id());
		assertThat(missed.data()).isEqualTo(joined.data());
		// ... and naming the newcomer: nothing more
		EventStream bensAgain = openStream(this.instances.a, room.b(), joined.id());
		// the newcomer's own stream is told its room, never member_joined
		EventStream dans = openStream(this.instances.a, dan, null);
		assertThat(Api.JSON.readTree(dans.nextEvent("matched").data())).isEqualTo(seated.json());
		dans.assertNoEventWithin(Duration.ofSeconds(1));
		bensAgain.assertNoEventWithin(Duration.ZERO);
		bensBack.assertNoEventWithin(Duration.ZERO);
		cys.assertNoEventWithin(Duration.ZERO);
		for (EventStream stream : List.of(cys, bensBack, bensAgain, dans)) {
			stream.close();
		}
	}

	@Test
	void aLeaveOutsideTheWindowReopensNothing() {
		Room room = roomOfThree();
		this.instances.clock.advance(Duration.ofSeconds(120));
		assertThat(this.instances.a.leave(room.a()).status()).isEqualTo(204);

		assertThat(this.instances.b.join(this.instances.b.session(), TOPIC, 3).status()).isEqualTo(202);
	}

	@Test
	void aRoomIsBackfilledOnceWhoeverLeavesAfter() {
		Room room = roomOfThree();
		this.instances.a.leave(room.a());
		String dan = this.instances.a.session();
		assertThat(this.instances.a.join(dan, TOPIC, 3).json().get("backfilled").asBoolean()).isTrue();

		assertThat(this.instances.b.leave(room.b()).status()).isEqualTo(204);
		assertThat(this.instances.b.join(this.instances.b.session(), TOPIC, 3).status()).isEqualTo(202);
		assertThat(this.instances.a.leave(dan).status()).isEqualTo(204);
		assertThat(this.instances.a.join(this.instances.a.session(), TOPIC, 3).status()).isEqualTo(202);
	}

	@Test
	void aRoomEveryoneLeftIsNotOffered() {
		Room room = roomOfThree();
		for (String member : List.of(room.a(), room.b(), room.c())) {
			assertThat(this.instances.a.leave(member).status()).isEqualTo(204);
		}

		assertThat(this.instances.b.join(this.instances.b.session(), TOPIC, 3).status()).isEqualTo(202);
	}

	@Test
	void neitherTheOneWhoLeftNorARecentPartnerOfSomeoneInTheRoomIsSeatedInIt() {
		String ben = this.instances.a.session();
		String dan = this.instances.b.session();
		RoomFeatures.shareARoom(this.instances.a, ben, this.instances.b, dan, 2);
		Room room = roomOfThreeWith(ben);
		assertThat(this.instances.b.leave(room.b()).status()).isEqualTo(204);

		assertThat(this.instances.a.join(room.b(), TOPIC, 3).status()).as("the one who left").isEqualTo(202);
		assertThat(this.instances.a.leave(room.b()).status()).isEqualTo(204);
		assertThat(this.instances.b.join(dan, TOPIC, 3).status()).as("Ben's recent partner").isEqualTo(202);
		assertThat(this.instances.b.leave(dan).status()).isEqualTo(204);

		Response stranger = this.instances.b.join(this.instances.b.session(), TOPIC, 3);
		assertThat(stranger.status()).as(stranger.body()).isEqualTo(200);
		assertThat(stranger.json().get("room_id").asString()).isEqualTo(room.id());
	}

	@Test
	void aBannedSessionIsNotSeatedAndTheSeatWaitsForTheNext() {
		Room room = roomOfThree();
		this.instances.a.leave(room.a());
		String banned = this.instances.a.session();
		this.instances.jdbc.sql("INSERT INTO bans (ban_type, subject, reason) VALUES ('SESSION', :key, 'test')")
			.param("key", Session.keyOf(banned))
			.update();
		RoomFeatures.forgetBans(this.instances.instanceA, this.instances.instanceB);

		assertThat(this.instances.a.join(banned, TOPIC, 3).status()).isEqualTo(403);
		Response next = this.instances.b.join(this.instances.b.session(), TOPIC, 3);
		assertThat(next.status()).as(next.body()).isEqualTo(200);
		assertThat(next.json().get("room_id").asString()).isEqualTo(room.id());
	}

	@Test
	void twoJoinersRacingOnTwoInstancesGetOneSeat() throws Exception {
		try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
			for (int round = 0; round < 5; round++) {
				Room room = roomOfThree();
				this.instances.a.leave(room.a());
				String dan = this.instances.a.session();
				String eve = this.instances.b.session();
				CyclicBarrier start = new CyclicBarrier(2);
				List<Future<Response>> answers = new ArrayList<>();
				for (Callable<Response> join : List.<Callable<Response>>of(() -> {
					start.await();
					return this.instances.a.join(dan, TOPIC, 3);
				}, () -> {
					start.await();
					return this.instances.b.join(eve, TOPIC, 3);
				})) {
					answers.add(pool.submit(join));
				}
				List<Integer> statuses = new ArrayList<>();
				for (Future<Response> answer : answers) {
					statuses.add(answer.get().status());
				}
				assertThat(statuses).as("round " + round).containsExactlyInAnyOrder(200, 202);
				assertThat(
						this.instances.jdbc.sql("SELECT COUNT(*) FROM seats WHERE room_id = :room AND left_at IS NULL")
							.param("room", room.id())
							.query(Long.class)
							.single())
					.isEqualTo(3);
				this.instances.a.leave(dan);
				this.instances.a.leave(eve);
			}
		}
	}

	private static EventStream openStream(Api instance, String token, @Nullable String lastEventId)
			throws InterruptedException {
		Request request = Request.get("/api/matching/events").bearer(token);
		return instance.http()
			.events((lastEventId != null) ? request.header("Last-Event-ID", lastEventId) : request)
			.awaitFirstLine(":subscribed");
	}

	/** Three strangers put in a room of three of the topic, through both instances. */
	private Room roomOfThree() {
		return roomOfThreeWith(this.instances.a.session());
	}

	private Room roomOfThreeWith(String first) {
		String b = this.instances.b.session();
		String c = this.instances.a.session();
		// a second apart: their aliases follow the order they waited in, A, B, C
		assertThat(this.instances.a.join(first, TOPIC, 3).status()).isEqualTo(202);
		this.instances.clock.advance(Duration.ofSeconds(1));
		assertThat(this.instances.b.join(b, TOPIC, 3).status()).isEqualTo(202);
		this.instances.clock.advance(Duration.ofSeconds(1));
		Response formed = this.instances.a.join(c, TOPIC, 3);
		assertThat(formed.status()).as(formed.body()).isEqualTo(200);
		assertThat(formed.json().get("room_type").asInt()).isEqualTo(3);
		return new Room(formed.json().get("room_id").asString(), formed.json().get("conversation_id").asLong(), first,
				b, c);
	}

	private static int port(ConfigurableApplicationContext instance) {
		return Integer.parseInt(instance.getEnvironment().getProperty("local.server.port", "0"));
	}

	/**
	 * What the instances tell each other of newcomers ({@code matching:member-joined}),
	 * heard by the test too, on a connection of its own.
	 */
	private static final class Announcements implements AutoCloseable {

		private static final String CHANNEL = "matching:member-joined";

		private static final String PROBE = "backfill-it:probe";

		private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

		private final RedisConnection connection;

		private Announcements(RedisConnection connection) {
			this.connection = connection;
		}

		/**
		 * Listens from now on: once a message of its probe channel reaches it (on a
		 * cluster a publish counts only the receivers on its own node).
		 */
		static Announcements listen(StringRedisTemplate redis) {
			Announcements announcements = new Announcements(redis.getRequiredConnectionFactory().getConnection());
			AtomicBoolean probed = new AtomicBoolean();
			Thread.ofVirtual().start(() -> announcements.connection.subscribe((message, pattern) -> {
				if (CHANNEL.equals(new String(message.getChannel(), StandardCharsets.UTF_8))) {
					announcements.heard.add(new String(message.getBody(), StandardCharsets.UTF_8));
				}
				else {
					probed.set(true);
				}
			}, CHANNEL.getBytes(StandardCharsets.UTF_8), PROBE.getBytes(StandardCharsets.UTF_8)));
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				redis.convertAndSend(PROBE, "");
				return probed.get();
			});
			return announcements;
		}

		List<String> heard() {
			return List.copyOf(this.heard);
		}

		String next() throws InterruptedException {
			String announcement = this.heard.poll(10, TimeUnit.SECONDS);
			assertThat(announcement).as("an announcement within 10 s").isNotNull();
			return announcement;
		}

		@Override
		public void close() {
			this.connection.getSubscription().unsubscribe();
			this.connection.close();
		}

	}

	/** A room of three and its people, oldest first. */
	record Room(String id, long conversationId, String a, String b, String c) {

	}

}
