package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Response;
import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.matching.queue.RedisKeys;
import io.kindling.matching.session.Session;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the service (two Spring Boot contexts on their own ports) against one
 * Redis and one MariaDB, sharing one test clock.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class TwoInstancesIT {

	static final MutableClock clock = new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS));

	static ConfigurableApplicationContext instanceA;

	static ConfigurableApplicationContext instanceB;

	static Api a;

	static Api b;

	static StringRedisTemplate redis;

	static JdbcClient jdbc;

	@BeforeAll
	static void startTwoInstances() {
		instanceA = instance();
		instanceB = instance();
		a = new Api(port(instanceA));
		b = new Api(port(instanceB));
		redis = instanceA.getBean(StringRedisTemplate.class);
		jdbc = instanceA.getBean(JdbcClient.class);
	}

	@AfterAll
	static void stopThem() throws Exception {
		// bounded: a pub/sub subscription recovering at shutdown can block close()
		// (spring-data-redis#2822)
		for (ConfigurableApplicationContext instance : new ConfigurableApplicationContext[] { instanceB, instanceA }) {
			if (instance != null) {
				Thread closing = Thread.ofPlatform().daemon().start(instance::close);
				closing.join(Duration.ofSeconds(15));
			}
		}
	}

	@BeforeEach
	void freshRedis() {
		redis.execute((RedisCallback<Object>) (RedisConnection connection) -> {
			connection.serverCommands().flushDb();
			return null;
		});
	}

	@Test
	void aRoomFormedOnInstanceAIsPushedToTheStreamOnInstanceB() throws Exception {
		String x = b.session();
		String y = a.session();
		EventStream stream = b.http().events("/api/matching/events", x);
		BlockingQueue<String> lines = stream.lines();
		assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(":subscribed");

		assertThat(b.join(x, 42, 2).status()).isEqualTo(202);
		Response formedOnA = a.join(y, 42, 2);
		assertThat(formedOnA.status()).isEqualTo(200);

		String event = StreamLines.next(lines, 10);
		String data = StreamLines.next(lines, 10);
		assertThat(event).isEqualTo("event:matched");
		assertThat(data).startsWith("data:");
		assertThat(Api.JSON.readTree(data.substring("data:".length()))).isEqualTo(formedOnA.json());
		assertThat(b.status(x).json()).isEqualTo(formedOnA.json());
		stream.close();
	}

	@Test
	void anAddressBanMadeOnOneInstanceBitesOnTheOtherAtOnce() {
		String waiting = b.session();
		// B reads its bans before the ban: they are good for ban-cache-ttl, and the clock
		// stands still
		assertThat(RoomFeatures.from(b, 70, 1).join(waiting, 1, 2).status()).isEqualTo(202);

		Response ban = RoomFeatures.admin(a, "POST", "/api/admin/bans",
				"{\"ban_type\":\"IP\",\"value\":\"127.0.70.0/24\"}");
		assertThat(ban.status()).as(ban.body()).isEqualTo(201);
		try {
			assertThat(redis.hasKey(RedisKeys.claim(waiting))).as("out of its queue, nobody polling").isFalse();
			await().atMost(Duration.ofSeconds(5))
				.until(() -> RoomFeatures.from(b, 70, 2).send("POST", "/api/sessions", null, null).status() == 403);
			RoomFeatures.assertProblem(RoomFeatures.from(b, 70, 1).join(waiting, 1, 2), 403, "banned");
		}
		finally {
			RoomFeatures.admin(a, "DELETE", "/api/admin/bans/" + ban.json().get("id").asLong(), null);
		}
	}

	@Test
	void aStreamOpenedAfterTheRoomFormedGetsItAtOnce() throws Exception {
		String x = a.session();
		String y = b.session();
		a.join(x, 1, 2);
		Response matched = b.join(y, 1, 2);
		EventStream stream = b.http().events("/api/matching/events", x);
		BlockingQueue<String> lines = stream.lines();
		assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(":subscribed");
		assertThat(StreamLines.next(lines, 10)).isEqualTo("event:matched");
		assertThat(Api.JSON.readTree(StreamLines.next(lines, 10).substring(5))).isEqualTo(matched.json());
		stream.close();
	}

	@Test
	void aThousandConcurrentClientsOnTwoInstancesNeverShareARoom() throws Exception {
		int clients = 1_000;
		// some client is left over, and so leaves and then gives up, whatever the timing
		assertThat(Crowd.queuesLeavingClientsOver(clients)).isPositive();
		Map<String, Joined> joined = new ConcurrentHashMap<>();
		List<Throwable> failures = new ArrayList<>();
		AtomicInteger leftTheQueue = new AtomicInteger();
		AtomicInteger abandoned = new AtomicInteger();
		CountDownLatch go = new CountDownLatch(1);
		// platform threads: the clients must not share the service's scheduler quirks
		try (ExecutorService executor = Executors.newFixedThreadPool(clients)) {
			for (int i = 0; i < clients; i++) {
				SplittableRandom random = new SplittableRandom(i);
				executor.submit(() -> {
					try {
						go.await();
						client(random, joined, leftTheQueue, abandoned);
					}
					catch (Throwable ex) {
						synchronized (failures) {
							failures.add(ex);
						}
					}
					return null;
				});
			}
			go.countDown();
		}
		assertThat(failures).isEmpty();

		// the rest of the rules, with nobody polling: the sweepers form the fallback
		// rooms, then drop whoever is left
		clock.advance(Duration.ofSeconds(61));
		await().atMost(Duration.ofSeconds(20)).until(() -> noFallbackRoomLeft());
		clock.advance(Duration.ofMinutes(5));
		await().atMost(Duration.ofSeconds(20))
			.until(() -> noWaitingClaimLeft() && redis.opsForZSet().size(RedisKeys.ACTIVE_QUEUES) == 0);
		assertThat(redis.keys("matching:queue:*")).isEmpty();

		Map<String, Joined> byKey = new HashMap<>();
		joined.values().forEach((client) -> byKey.put(Session.keyOf(client.token()), client));
		Map<Long, Conversation> conversations = new HashMap<>();
		Map<String, Long> conversationOf = new HashMap<>();
		jdbc.sql("""
				SELECT c.id, c.room_id, c.topic_id, c.size, c.room_type, c.fallback,
				  c.backfilled_at IS NOT NULL AS backfilled, p.participant_key
				FROM conversations c JOIN conversation_participants p ON p.conversation_id = c.id
				""").query((rs) -> {
			String key = rs.getString("participant_key");
			if (!byKey.containsKey(key)) {
				return;
			}
			long id = rs.getLong("id");
			Long earlier = conversationOf.put(key, id);
			assertThat(earlier).as("a token in two conversations").isNull();
			conversations
				.computeIfAbsent(id,
						(ignored) -> new Conversation(id, rowString(rs, "room_id"), rowLong(rs, "topic_id"),
								rowInt(rs, "size"), rowInt(rs, "room_type"), rowBoolean(rs, "fallback"),
								rowBoolean(rs, "backfilled"), new HashSet<>()))
				.members()
				.add(key);
		});
		assertThat(conversations.size()).as("rooms formed").isGreaterThan(clients / 4);
		for (Conversation conversation : conversations.values()) {
			// a client that left a room of three just formed may have had its seat taken
			// by
			// a later joiner
			assertThat(conversation.members())
				.hasSize(conversation.backfilled() ? conversation.roomType() + 1 : conversation.roomType());
			assertThat(conversation.roomType()).isBetween(2, 3);
			assertThat(conversation.roomType()).isEqualTo(conversation.fallback() ? 2 : conversation.size());
			for (String member : conversation.members()) {
				Joined client = byKey.get(member);
				assertThat(client.topicId()).isEqualTo(conversation.topicId());
				assertThat(client.size()).isEqualTo(conversation.size());
			}
		}
		for (Joined client : joined.values()) {
			Long conversationId = conversationOf.get(Session.keyOf(client.token()));
			if (client.matchedRoomId() != null) {
				assertThat(conversationId).isNotNull();
				assertThat(conversations.get(conversationId).roomId()).isEqualTo(client.matchedRoomId());
			}
			String status = ((client.token().hashCode() & 1) == 0 ? a : b).status(client.token()).field("status");
			assertThat(status).isIn("idle", "matched");
			if (status.equals("matched")) {
				assertThat(conversationId).isNotNull();
			}
		}
		assertThat(leftTheQueue.get()).isPositive();
		assertThat(abandoned.get()).isPositive();
	}

	/**
	 * One client: a session, a join on either instance, polls on either, and then, when
	 * they found no room, leaving and coming back as a new session or giving up, as a
	 * crowd's client does ({@link Crowd#givesUp}). Each session joins once, so a token in
	 * two conversations can only be a double assignment.
	 */
	private static void client(SplittableRandom random, Map<String, Joined> joined, AtomicInteger leftTheQueue,
			AtomicInteger abandoned) throws InterruptedException {
		Crowd.Queue queue = Crowd.Queue.of(random);
		long topicId = queue.topicId();
		int size = queue.size();
		for (int round = 0; round < 3; round++) {
			String token = pick(random).session();
			Response join = pick(random).join(token, topicId, size);
			assertThat(join.status()).as(join.body()).isIn(200, 202);
			joined.put(token, new Joined(token, topicId, size, null));
			if (join.status() == 200) {
				joined.put(token, new Joined(token, topicId, size, join.field("room_id")));
				return;
			}
			for (int poll = 0; poll < 6; poll++) {
				Thread.sleep(30 + random.nextInt(120));
				Response status = pick(random).status(token);
				assertThat(status.status()).isEqualTo(200);
				if (status.field("status").equals("matched")) {
					joined.put(token, new Joined(token, topicId, size, status.field("room_id")));
					return;
				}
			}
			if (Crowd.givesUp(round, random)) {
				abandoned.incrementAndGet();
				return;
			}
			assertThat(pick(random).leave(token).status()).isEqualTo(204);
			leftTheQueue.incrementAndGet();
		}
	}

	private static boolean noWaitingClaimLeft() {
		return redis.keys("matching:claim:*").stream().noneMatch((claim) -> redis.opsForHash().hasKey(claim, "join"));
	}

	private static boolean noFallbackRoomLeft() {
		for (long topic = 1; topic <= 4; topic++) {
			Long waiting = redis.opsForZSet().size(RedisKeys.queue(topic, 3));
			if (waiting != null && waiting >= 2) {
				return false;
			}
		}
		return true;
	}

	private static Api pick(SplittableRandom random) {
		return random.nextBoolean() ? a : b;
	}

	private static ConfigurableApplicationContext instance() {
		return new SpringApplicationBuilder(MatchingApplication.class)
			.initializers((context) -> TestClockConfiguration.register((GenericApplicationContext) context, clock))
			// arguments, not default properties: they must win over application.yml
			.run("--server.port=0", "--kindling.matching.rate-limit.joins-per-minute=0",
					"--kindling.matching.rate-limit.sessions-per-minute=0",
					"--kindling.matching.admin-token=" + RoomFeatures.ADMIN_TOKEN, "--spring.jmx.enabled=false",
					"--logging.level.root=WARN");
	}

	private static int port(ConfigurableApplicationContext context) {
		return Integer.parseInt(context.getEnvironment().getProperty("local.server.port", "0"));
	}

	private static String rowString(java.sql.ResultSet rs, String column) {
		try {
			return rs.getString(column);
		}
		catch (java.sql.SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static long rowLong(java.sql.ResultSet rs, String column) {
		try {
			return rs.getLong(column);
		}
		catch (java.sql.SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static int rowInt(java.sql.ResultSet rs, String column) {
		try {
			return rs.getInt(column);
		}
		catch (java.sql.SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static boolean rowBoolean(java.sql.ResultSet rs, String column) {
		try {
			return rs.getBoolean(column);
		}
		catch (java.sql.SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	record Joined(String token, long topicId, int size, @Nullable String matchedRoomId) {

	}

	record Conversation(long id, String roomId, long topicId, int size, int roomType, boolean fallback,
			boolean backfilled, Set<String> members) {

	}

	/** Collects the lines of an event stream. */

}
