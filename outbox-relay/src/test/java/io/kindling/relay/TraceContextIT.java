package io.kindling.relay;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariDataSource;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
 * From a request to its record, end to end: swipe-service and matching-service run from
 * their jars on the real MariaDB and Redis, this relay publishes their outbox tables to
 * the real Kafka. A request that carries a W3C {@code traceparent} and writes an event (a
 * like that makes a match; a join that forms a room) ends in a record whose
 * {@code traceparent} header continues that trace: the same trace id, the service's own
 * span as the parent.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB, Server.KAFKA }, database = "trace_it")
@SpringBootTest
class TraceContextIT {

	static final String JWT_SECRET = Hs256.newSecret();

	static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])");

	static TopicReader matchesTopic;

	static TopicReader roomsTopic;

	static ServiceJar swipes;

	static ServiceJar rooms;

	static ServiceClient swipeApi;

	static ServiceClient roomsApi;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", () -> RealServersExtension.mariaDb().jdbcUrl("trace_swipe"));
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> "trace.matches");
		registry.add("kindling.relay.sources[1].name", () -> "rooms");
		registry.add("kindling.relay.sources[1].url", () -> RealServersExtension.mariaDb().jdbcUrl("trace_matching"));
		registry.add("kindling.relay.sources[1].table", () -> "room_outbox");
		registry.add("kindling.relay.sources[1].topic", () -> "trace.rooms");
		registry.add("kindling.relay.wake-up-port", () -> "0");
	}

	/**
	 * Before the relay's context: the services make their outbox tables, the relay waits
	 * for them.
	 */
	@BeforeAll
	static void startServices() throws Exception {
		for (String database : List.of("trace_swipe", "trace_matching")) {
			RealServersExtension.mariaDb().sql("DROP DATABASE IF EXISTS `" + database + "`");
			RealServersExtension.mariaDb().createDatabase(database);
		}
		String kafka = RealServersExtension.kafka().bootstrapServers();
		matchesTopic = new TopicReader(kafka, "trace.matches");
		roomsTopic = new TopicReader(kafka, "trace.rooms");
		Path root = Path.of(System.getProperty("kindling.root"));
		Path logs = Path.of("target").toAbsolutePath();
		swipes = ServiceJar.start(ServiceJar.locate(root, "swipe-service"), "384m", FreePorts.pick(),
				settings("trace_swipe", "--kindling.security.jwt-secret=" + JWT_SECRET),
				logs.resolve("trace-swipe-service.log"));
		rooms = ServiceJar.start(ServiceJar.locate(root, "matching-service"), "384m", FreePorts.pick(),
				settings("trace_matching"), logs.resolve("trace-matching-service.log"));
		swipes.awaitHealthy(Duration.ofSeconds(120));
		rooms.awaitHealthy(Duration.ofSeconds(120));
		swipeApi = new ServiceClient(swipes.port());
		roomsApi = new ServiceClient(rooms.port());
	}

	private static List<String> settings(String database, String... more) {
		List<String> settings = new java.util.ArrayList<>(List.of("--kindling.database.host=127.0.0.1",
				"--kindling.database.port=" + RealServersExtension.mariaDb().port(),
				"--kindling.database.name=" + database, "--spring.datasource.username=" + MariaDbServer.USER,
				"--spring.datasource.password=" + MariaDbServer.PASSWORD, "--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + RealServersExtension.redis().port(),
				// no relay listens for the wake-up: this one polls
				"--kindling.outbox.wake-up-address="));
		settings.addAll(List.of(more));
		return settings;
	}

	@AfterAll
	static void stop() throws InterruptedException {
		ServiceJar.stopAll(List.of(swipes, rooms));
		matchesTopic.close();
		roomsTopic.close();
	}

	@Test
	void aLikeThatMakesAMatchCarriesItsRequestsTraceToTheMatchCreatedRecord() {
		long ana = ThreadLocalRandom.current().nextLong(1_000_000, 2_000_000);
		long ben = ana + 1;
		insertProfiles(ana, ben);
		String anaTrace = newTraceparent();
		String benTrace = newTraceparent();

		Response anaLike = swipe(ana, ben, anaTrace);
		assertThat(anaLike.status()).as(anaLike.body()).isEqualTo(200);
		assertThat(anaLike.json().get("matched").asBoolean()).isFalse();
		Response benLike = swipe(ben, ana, benTrace);
		assertThat(benLike.status()).as(benLike.body()).isEqualTo(200);
		assertThat(benLike.json().get("matched").asBoolean()).isTrue();

		ConsumerRecord<String, String> created = await().atMost(Duration.ofSeconds(30))
			.until(() -> matchesTopic.records()
				.stream()
				.filter((record) -> record.key().equals(ana + ":" + ben))
				.filter((record) -> TopicReader.header(record, "event_type").equals("MATCH_CREATED"))
				.findFirst(), Optional::isPresent)
			.orElseThrow();
		assertContinues(TopicReader.header(created, "traceparent"), benTrace);
	}

	@Test
	void aJoinThatFormsARoomCarriesItsRequestsTraceToTheRoomFormedRecord() {
		String first = session();
		String second = session();
		String firstTrace = newTraceparent();
		String secondTrace = newTraceparent();

		Response waiting = join(first, firstTrace);
		assertThat(waiting.status()).as(waiting.body()).isEqualTo(202);
		Response formed = join(second, secondTrace);
		assertThat(formed.status()).as(formed.body()).isEqualTo(200);
		String roomId = formed.field("room_id");
		assertThat(roomId).as(formed.body()).isNotEmpty();

		ConsumerRecord<String, String> record = await().atMost(Duration.ofSeconds(30))
			.until(() -> roomsTopic.records().stream().filter((r) -> r.key().equals(roomId)).findFirst(),
					Optional::isPresent)
			.orElseThrow();
		assertThat(TopicReader.header(record, "event_type")).isEqualTo("ROOM_FORMED");
		assertContinues(TopicReader.header(record, "traceparent"), secondTrace);
	}

	/**
	 * The record's trace context is the request's trace, its parent the span the service
	 * opened for the request (not the caller's span), sampled as the caller asked.
	 */
	private static void assertContinues(String recordTraceparent, String requestTraceparent) {
		Matcher record = TRACEPARENT.matcher(recordTraceparent);
		Matcher request = TRACEPARENT.matcher(requestTraceparent);
		assertThat(record.matches()).as("a W3C traceparent: '%s'", recordTraceparent).isTrue();
		assertThat(request.matches()).isTrue();
		assertThat(record.group(1)).as("trace id").isEqualTo(request.group(1));
		assertThat(record.group(2)).as("the service's own span").isNotEqualTo(request.group(2));
		assertThat(record.group(3)).as("sampled").isEqualTo("01");
	}

	private static String newTraceparent() {
		byte[] traceId = new byte[16];
		byte[] spanId = new byte[8];
		ThreadLocalRandom.current().nextBytes(traceId);
		ThreadLocalRandom.current().nextBytes(spanId);
		return "00-" + HexFormat.of().formatHex(traceId) + "-" + HexFormat.of().formatHex(spanId) + "-01";
	}

	private static Response swipe(long user, long target, String traceparent) {
		return swipeApi.send(Request.of("POST", "/api/swipes")
			.bearer(Hs256.token(JWT_SECRET, user))
			.header("Idempotency-Key", UUID.randomUUID().toString())
			.header("traceparent", traceparent)
			.json("{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}"));
	}

	private static String session() {
		Response created = roomsApi.send(Request.of("POST", "/api/sessions").body(new byte[0]));
		assertThat(created.status()).as(created.body()).isEqualTo(201);
		return created.field("token");
	}

	private static Response join(String token, String traceparent) {
		// topic 3 (Music) is one of the catalogue's first topics
		return roomsApi.send(Request.of("POST", "/api/matching")
			.bearer(token)
			.header("traceparent", traceparent)
			.json("{\"topic_id\":3,\"size\":2}"));
	}

	/**
	 * Two people near each other, each what the other looks for (profiles are not under
	 * test).
	 */
	private static void insertProfiles(long... users) {
		try (HikariDataSource dataSource = new HikariDataSource()) {
			dataSource.setJdbcUrl(RealServersExtension.mariaDb().jdbcUrl("trace_swipe"));
			dataSource.setUsername(MariaDbServer.USER);
			dataSource.setPassword(MariaDbServer.PASSWORD);
			JdbcClient jdbc = JdbcClient.create(dataSource);
			for (long user : users) {
				jdbc.sql(
						"""
								INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
								    age_min, age_max, max_distance_km, created_at, updated_at, last_active_at)
								VALUES (:user, CONCAT('User ', :user), 'WOMAN', 'WOMAN,MAN', '1995-05-05', 52.52, 13.405,
								    'u33dc0cpp', 18, 99, 50, NOW(6), NOW(6), NOW(6))
								""")
					.params(Map.of("user", user))
					.update();
			}
		}
	}

}
