package io.kindling.relay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import com.zaxxer.hikari.HikariDataSource;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.GaleraCluster;
import io.kindling.infra.servers.GaleraNode;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The database's writer killed in the middle of racing mutual likes and room joins:
 * swipe-service and matching-service run from their jars, and this relay in the test, all
 * through the balancer in front of a three-node Galera cluster, as
 * {@code ./kindling up --cluster} runs them. The writer dies with {@code kill -9}; the
 * balancer moves to another node, the services' and the relay's pools find it without a
 * restart, and clients that were told 503 retry. Then every acknowledged match and room
 * is there exactly once, and every outbox row reaches Kafka in per-key order.
 */
@RealServers(value = { Server.REDIS, Server.GALERA, Server.KAFKA }, database = "galera_relay")
@SpringBootTest
class GaleraFailoverIT {

	static final String JWT_SECRET = "galera-failover-it-secret-of-at-least-32-bytes";

	static final int PAIRS = 60;

	static final int ROOM_PAIRS = 30;

	/** How long a client keeps retrying one request before the test gives up on it. */
	static final Duration PATIENCE = Duration.ofSeconds(90);

	static TopicReader matchesTopic;

	static TopicReader roomsTopic;

	static ServiceClient swipeApi;

	static ServiceClient roomsApi;

	static RelayedServices services;

	static HikariDataSource swipeDb;

	static HikariDataSource matchingDb;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		RelayedServices.relaySources(registry, "galera", (database) -> RealServersExtension.galera().jdbcUrl(database));
	}

	/**
	 * Before the relay's context: the services make their tables, the relay waits for
	 * them.
	 */
	@BeforeAll
	static void startServices() throws Exception {
		GaleraCluster galera = RealServersExtension.galera();
		galera.createDatabase("galera_swipe");
		galera.createDatabase("galera_matching");
		String kafka = RealServersExtension.kafka().bootstrapServers();
		matchesTopic = new TopicReader(kafka, "galera.matches");
		roomsTopic = new TopicReader(kafka, "galera.rooms");
		services = RelayedServices.start("galera", galera.port(), JWT_SECRET, Duration.ofSeconds(300),
				"--kindling.matching.rate-limit.joins-per-minute=0",
				"--kindling.matching.rate-limit.sessions-per-minute=0");
		swipeApi = services.swipeApi();
		roomsApi = services.roomsApi();
		swipeDb = dataSource("galera_swipe");
		matchingDb = dataSource("galera_matching");
	}

	private static HikariDataSource dataSource(String database) {
		HikariDataSource dataSource = new HikariDataSource();
		dataSource.setJdbcUrl(RealServersExtension.galera().jdbcUrl(database));
		dataSource.setUsername(MariaDbServer.USER);
		dataSource.setPassword(MariaDbServer.PASSWORD);
		dataSource.setMaximumPoolSize(4);
		return dataSource;
	}

	@AfterAll
	static void stop() throws InterruptedException {
		services.stop();
		matchesTopic.close();
		roomsTopic.close();
		swipeDb.close();
		matchingDb.close();
	}

	@Test
	void killingTheWriterDuringRacingLikesAndJoinsLosesNothingAcknowledgedAndDoublesNothing() throws Exception {
		GaleraCluster galera = RealServersExtension.galera();
		long firstUser = ThreadLocalRandom.current().nextLong(1_000_000, 900_000_000);
		insertProfiles(firstUser, 2 * PAIRS);
		Clients clients = new Clients();
		AtomicInteger acknowledged = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(16);
		List<Future<PairOutcome>> pairs = new ArrayList<>();
		List<Future<JoinOutcome>> joins = new ArrayList<>();
		for (int i = 0; i < Math.max(PAIRS, 2 * ROOM_PAIRS); i++) {
			if (i < PAIRS) {
				long a = firstUser + 2L * i;
				boolean unmatch = i % 3 == 0;
				pairs.add(threads.submit(() -> racePair(clients, a, a + 1, unmatch, acknowledged)));
			}
			if (i < 2 * ROOM_PAIRS) {
				joins.add(threads.submit(() -> join(clients, acknowledged)));
			}
		}
		// the writer dies while a third of the calls are answered and the rest are racing
		await().atMost(Duration.ofSeconds(120)).until(() -> acknowledged.get() >= (2 * PAIRS + 2 * ROOM_PAIRS) / 3);
		GaleraNode writer = galera.writer();
		writer.kill();
		long killedAt = System.nanoTime();
		clients.killedAt.set(killedAt);
		assertThat(writer.isRunning()).isFalse();
		GaleraNode next = galera.awaitWriterOtherThan(writer, Duration.ofSeconds(60));
		double moved = (System.nanoTime() - killedAt) / 1e9;

		List<PairOutcome> pairOutcomes = new ArrayList<>();
		for (Future<PairOutcome> pair : pairs) {
			pairOutcomes.add(pair.get(3, TimeUnit.MINUTES));
		}
		List<JoinOutcome> joinOutcomes = new ArrayList<>();
		for (Future<JoinOutcome> join : joins) {
			joinOutcomes.add(join.get(3, TimeUnit.MINUTES));
		}
		threads.shutdown();
		clients.racers.shutdown();

		// what the clients saw: answers, or a 503 with Retry-After to retry on; never a
		// 500
		assertThat(clients.refusals).as("answers other than 503 with Retry-After").isEmpty();
		assertThat(clients.acknowledgedAfterKill).as("calls answered by the services' pools after the kill")
			.hasPositiveValue();
		assertThat(galera.writer()).isSameAs(next);
		System.out.printf(Locale.ROOT,
				"galera failover: killed %s; %s the writer %.1f s later; %d calls answered after the kill, "
						+ "%d answers of 503 before an answer%n",
				writer.nodeName(), next.nodeName(), moved, clients.acknowledgedAfterKill.get(),
				clients.unavailable.get());

		JdbcClient swipeSql = JdbcClient.create(swipeDb);
		for (PairOutcome pair : pairOutcomes) {
			List<Long> matchIds = swipeSql
				.sql("SELECT match_id FROM matches WHERE user_id_1 = :low AND user_id_2 = :high")
				.param("low", pair.low())
				.param("high", pair.high())
				.query(Long.class)
				.list();
			assertThat(matchIds).as("the match of %d and %d, both likes acknowledged", pair.low(), pair.high())
				.hasSize(1);
			assertThat(pair.matchIds()).as("what their answers said").isNotEmpty().containsOnly(matchIds.get(0));
		}

		// every session that joined is told of its room; each room is there once, and
		// nobody sits in two
		JdbcClient matchingSql = JdbcClient.create(matchingDb);
		for (JoinOutcome join : joinOutcomes) {
			String roomId = await().atMost(Duration.ofSeconds(60))
				.until(() -> roomOf(clients, join.token()), (room) -> room != null);
			List<String> conversations = matchingSql.sql("""
					SELECT c.room_id FROM conversations c
					JOIN conversation_participants p ON p.conversation_id = c.id
					WHERE p.participant_key = :key
					""").param("key", keyOf(join.token())).query(String.class).list();
			assertThat(conversations).as("the rooms of a session told it is in %s", roomId).containsExactly(roomId);
		}

		// every outbox row, on Kafka, in its key's order
		assertOnKafkaInKeyOrder(swipeSql, "match_outbox", matchesTopic);
		assertOnKafkaInKeyOrder(matchingSql, "room_outbox", roomsTopic);

		// the killed node rejoins with what it missed
		galera.restart(writer);
		galera.awaitSynced(Duration.ofSeconds(120));
		assertThat(writer.query("SELECT COUNT(*) FROM galera_swipe.matches").strip())
			.isEqualTo(next.query("SELECT COUNT(*) FROM galera_swipe.matches").strip());
	}

	/**
	 * Both likes of a pair at once, each retried until acknowledged; then, for some, an
	 * unmatch.
	 */
	private static PairOutcome racePair(Clients clients, long a, long b, boolean unmatch, AtomicInteger acknowledged)
			throws Exception {
		String aKey = UUID.randomUUID().toString();
		String bKey = UUID.randomUUID().toString();
		CompletableFuture<Response> aLikes = CompletableFuture
			.supplyAsync(() -> clients.untilAnswered(() -> Request.of("POST", "/api/swipes")
				.bearer(Hs256.token(JWT_SECRET, a))
				.header("Idempotency-Key", aKey)
				.json("{\"target_user_id\":" + b + ",\"action\":\"LIKE\"}"), swipeApi), clients.racers);
		Response bLikes = clients.untilAnswered(() -> Request.of("POST", "/api/swipes")
			.bearer(Hs256.token(JWT_SECRET, b))
			.header("Idempotency-Key", bKey)
			.json("{\"target_user_id\":" + a + ",\"action\":\"LIKE\"}"), swipeApi);
		Response aLiked = aLikes.get();
		acknowledged.addAndGet(2);
		assertThat(aLiked.status()).as(aLiked.body()).isEqualTo(200);
		assertThat(bLikes.status()).as(bLikes.body()).isEqualTo(200);
		Set<Long> matchIds = ConcurrentHashMap.newKeySet();
		for (Response like : List.of(aLiked, bLikes)) {
			if (like.json().get("matched").asBoolean()) {
				matchIds.add(like.json().get("match_id").asLong());
			}
		}
		if (unmatch && !matchIds.isEmpty()) {
			long matchId = matchIds.iterator().next();
			Response removed = clients.untilAnswered(
					() -> Request.of("DELETE", "/api/matches/" + matchId).bearer(Hs256.token(JWT_SECRET, a)), swipeApi);
			assertThat(removed.status()).as(removed.body()).isIn(204, 404);
		}
		return new PairOutcome(Math.min(a, b), Math.max(a, b), Set.copyOf(matchIds));
	}

	/** A new session joins topic 1 for a room of two, retried until answered. */
	private static JoinOutcome join(Clients clients, AtomicInteger acknowledged) {
		Response session = clients.untilAnswered(() -> Request.of("POST", "/api/sessions").body(new byte[0]), roomsApi);
		assertThat(session.status()).as(session.body()).isEqualTo(201);
		String token = session.field("token");
		Response joined = clients.untilAnswered(
				() -> Request.of("POST", "/api/matching").bearer(token).json("{\"topic_id\":1,\"size\":2}"), roomsApi);
		acknowledged.incrementAndGet();
		// a retry of a join that went through is told it already waits (or sits)
		assertThat(joined.status()).as(joined.body()).isIn(200, 202, 409);
		return new JoinOutcome(token);
	}

	/** The room the session's state names, once it is matched; null while it waits. */
	private static String roomOf(Clients clients, String token) {
		Response state = clients.untilAnswered(() -> Request.get("/api/matching").bearer(token), roomsApi);
		assertThat(state.status()).as(state.body()).isEqualTo(200);
		return "matched".equals(state.field("status")) ? state.field("room_id") : null;
	}

	private static void assertOnKafkaInKeyOrder(JdbcClient sql, String table, TopicReader topic) {
		List<Map<String, Object>> rows = sql.sql("SELECT event_id, event_key FROM " + table + " ORDER BY id")
			.query()
			.listOfRows();
		assertThat(rows).isNotEmpty();
		await().atMost(Duration.ofSeconds(60))
			.untilAsserted(() -> assertThat(topic.eventIds()).as("the events of " + table + " on Kafka")
				.containsAll(rows.stream().map((row) -> (String) row.get("event_id")).toList()));
		Map<String, List<String>> published = topic.firstOccurrencesByKey();
		Map<String, List<String>> written = new java.util.LinkedHashMap<>();
		for (Map<String, Object> row : rows) {
			written.computeIfAbsent((String) row.get("event_key"), (key) -> new ArrayList<>())
				.add((String) row.get("event_id"));
		}
		written.forEach((key, events) -> assertThat(published.get(key)).as("the events of key %s, in order", key)
			.isEqualTo(events));
	}

	/** Profiles that match each other, {@code count} users from {@code first} on. */
	private static void insertProfiles(long first, int count) {
		RelayedServices.insertProfiles(JdbcClient.create(swipeDb), LongStream.range(first, first + count).toArray());
	}

	private static String keyOf(String token) throws Exception {
		return HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.US_ASCII)));
	}

	record PairOutcome(long low, long high, Set<Long> matchIds) {

	}

	record JoinOutcome(String token) {

	}

	/**
	 * Clients as a well-behaved app writes them: a 503 is retried after its
	 * {@code Retry-After}, with the same request (and Idempotency-Key); anything else is
	 * the answer. Answers other than that are kept for the test to see.
	 */
	static final class Clients {

		final List<String> refusals = new java.util.concurrent.CopyOnWriteArrayList<>();

		/** The other side of each racing pair, on threads of its own. */
		final ExecutorService racers = Executors.newCachedThreadPool();

		final AtomicLong killedAt = new AtomicLong(Long.MAX_VALUE);

		final AtomicInteger acknowledgedAfterKill = new AtomicInteger();

		final AtomicInteger unavailable = new AtomicInteger();

		Response untilAnswered(Supplier<Request> request, ServiceClient api) {
			long deadline = System.nanoTime() + PATIENCE.toNanos();
			while (true) {
				long sentAt = System.nanoTime();
				Request sent = request.get();
				Response response;
				try {
					response = api.sendOrThrow(sent);
				}
				catch (IOException ex) {
					this.refusals.add(sent.method() + " " + sent.path() + ": " + ex);
					pause(Duration.ofMillis(250), deadline);
					continue;
				}
				if (response.status() != 503) {
					if (response.status() >= 500) {
						this.refusals
							.add(sent.method() + " " + sent.path() + ": " + response.status() + " " + response.body());
					}
					if (sentAt > this.killedAt.get()) {
						this.acknowledgedAfterKill.incrementAndGet();
					}
					return response;
				}
				this.unavailable.incrementAndGet();
				if (response.header("Retry-After").isEmpty()) {
					this.refusals.add(sent.method() + " " + sent.path() + ": a 503 without Retry-After");
				}
				pause(Duration.ofSeconds(Long.parseLong(response.header("Retry-After").orElse("1"))), deadline);
			}
		}

		private static void pause(Duration wait, long deadline) {
			if (System.nanoTime() + wait.toNanos() > deadline) {
				throw new IllegalStateException("no answer but 503 within " + PATIENCE);
			}
			try {
				Thread.sleep(wait);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

	}

}
