package io.kindling.relay;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.zaxxer.hikari.HikariDataSource;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.servers.MariaDbServer;
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

	static RelayedServices services;

	@DynamicPropertySource
	static void sources(DynamicPropertyRegistry registry) {
		RelayedServices.relaySources(registry, "trace", (database) -> RealServersExtension.mariaDb().jdbcUrl(database));
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
		services = RelayedServices.start("trace", RealServersExtension.mariaDb().port(), JWT_SECRET,
				Duration.ofSeconds(120));
	}

	@AfterAll
	static void stop() throws InterruptedException {
		services.stop();
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
		return services.swipeApi()
			.send(Request.of("POST", "/api/swipes")
				.bearer(Hs256.token(JWT_SECRET, user))
				.header("Idempotency-Key", UUID.randomUUID().toString())
				.header("traceparent", traceparent)
				.json("{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}"));
	}

	private static String session() {
		Response created = services.roomsApi().send(Request.of("POST", "/api/sessions").body(new byte[0]));
		assertThat(created.status()).as(created.body()).isEqualTo(201);
		return created.field("token");
	}

	private static Response join(String token, String traceparent) {
		// topic 3 (Music) is one of the catalogue's first topics
		return services.roomsApi()
			.send(Request.of("POST", "/api/matching")
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
			RelayedServices.insertProfiles(JdbcClient.create(dataSource), users);
		}
	}

}
