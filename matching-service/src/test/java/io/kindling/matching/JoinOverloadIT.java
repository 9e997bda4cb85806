package io.kindling.matching;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.sql.DataSource;

import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.TableLock;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flood of slow joins on one instance: the four joins it takes form rooms and wait on
 * MariaDB (a test holds the conversations' table), every join past them is refused at
 * once with 503 overloaded and Retry-After, health still answers, and afterwards every
 * room acknowledged is stored once with its two people, while a refused session is in no
 * queue and no room, and joins normally again.
 * <p>
 * Tomcat closes the connection after every {@code 503} ({@code Connection: close}), so
 * each refused client comes back on a new connection: a burst of them, each on a
 * connection of its own, is refused alike, and the instance keeps Tomcat's pool at
 * {@code server.tomcat.threads.max} 32, as swipe-service (with 200, bursts of reconnects
 * grew it past 130 threads on two cores and the refusals waited behind them).
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching_overload")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "kindling.web.overload.limit=4", "kindling.web.overload.adaptive=false",
				"kindling.matching.topic-cache-ttl=0", "kindling.matching.rate-limit.joins-per-minute=0",
				"kindling.matching.rate-limit.sessions-per-minute=0" })
class JoinOverloadIT {

	/** Topics of this test's own, so no session of another test waits in their queues. */
	private static final long FIRST_TOPIC = 9100;

	private static final int HELD = 4;

	private static final int REFUSED = 16;

	/**
	 * More refused clients at once, each on a new connection, than the instance has
	 * threads.
	 */
	private static final int BURST = 96;

	private static final int THREADS = 32;

	@LocalServerPort
	int port;

	@Autowired
	DataSource dataSource;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	WebServerApplicationContext context;

	@Test
	void pastTheLimitJoinsAreRefusedAtOnceAndNothingAcknowledgedIsLostOrDoubled() throws Exception {
		for (long topic = FIRST_TOPIC; topic <= FIRST_TOPIC + HELD; topic++) {
			this.jdbc.sql("INSERT IGNORE INTO topics (id, name, active) VALUES (:id, :name, TRUE)")
				.param("id", topic)
				.param("name", "overload " + topic)
				.update();
		}
		Api api = new Api(this.port);
		List<String> waiting = new ArrayList<>();
		List<String> completing = new ArrayList<>();
		List<String> flood = new ArrayList<>();
		for (int pair = 0; pair < HELD; pair++) {
			waiting.add(api.session());
			completing.add(api.session());
			assertThat(api.join(waiting.get(pair), FIRST_TOPIC + pair, 2).status()).isEqualTo(202);
		}
		for (int i = 0; i < REFUSED; i++) {
			flood.add(api.session());
		}
		List<String> burst = new ArrayList<>();
		for (int i = 0; i < BURST; i++) {
			burst.add(api.session());
		}
		List<Future<Response>> held = new ArrayList<>();
		List<Response> refused = new ArrayList<>();
		List<Future<Response>> burstRefused = new ArrayList<>();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			try (TableLock lock = TableLock.hold(this.dataSource, "conversations")) {
				for (int pair = 0; pair < HELD; pair++) {
					String token = completing.get(pair);
					long topic = FIRST_TOPIC + pair;
					held.add(threads.submit(() -> api.join(token, topic, 2)));
				}
				lock.awaitWaiting(HELD, Duration.ofSeconds(60));

				for (String token : flood) {
					refused.add(api.join(token, FIRST_TOPIC + HELD, 2));
				}
				// all at once, each on a connection of its own, as clients refused
				// before come back
				for (String token : burst) {
					Api fresh = new Api(new ServiceClient(this.port));
					burstRefused.add(threads.submit(() -> fresh.join(token, FIRST_TOPIC + HELD, 2)));
				}
				for (Future<Response> answer : burstRefused) {
					refused.add(answer.get());
				}
				assertThat(api.send("GET", "/actuator/health", null, null).status()).isEqualTo(200);
				// every refusal came while the four still waited: none queued for a
				// place
				assertThat(held).noneMatch(Future::isDone);
			}
			assertThat(refused).hasSize(REFUSED + BURST);
			for (Response answer : refused) {
				assertThat(answer.status()).as(answer.body()).isEqualTo(503);
				assertThat(answer.header("Retry-After")).hasValue("1");
				assertThat(answer.field("type")).isEqualTo("https://kindling.io/problems/overloaded");
				// Tomcat's own rule for a 503: the client's next request needs a new
				// connection
				assertThat(answer.header("Connection")).hasValue("close");
			}
			ThreadPoolExecutor workers = (ThreadPoolExecutor) ((TomcatWebServer) this.context.getWebServer())
				.getTomcat()
				.getConnector()
				.getProtocolHandler()
				.getExecutor();
			assertThat(workers.getMaximumPoolSize()).isEqualTo(THREADS);
			for (int pair = 0; pair < HELD; pair++) {
				Response formed = held.get(pair).get();
				assertThat(formed.status()).as(formed.body()).isEqualTo(200);
				long conversation = formed.json().get("conversation_id").asLong();
				assertThat(roomsOf(waiting.get(pair))).containsExactly(conversation);
				assertThat(roomsOf(completing.get(pair))).containsExactly(conversation);
			}
		}
		for (String token : burst) {
			assertThat(api.status(token).json().get("status").asString()).isEqualTo("idle");
			assertThat(roomsOf(token)).isEmpty();
		}
		for (String token : flood) {
			assertThat(api.status(token).json().get("status").asString()).isEqualTo("idle");
			assertThat(roomsOf(token)).isEmpty();
		}

		// nothing was done, so the same join again is the first: they pair up among
		// themselves
		for (String token : flood) {
			assertThat(api.join(token, FIRST_TOPIC + HELD, 2).status()).isIn(200, 202);
		}
		for (String token : flood) {
			assertThat(roomsOf(token)).hasSize(1);
		}
	}

	private List<Long> roomsOf(String token) throws Exception {
		String key = HexFormat.of()
			.formatHex(java.security.MessageDigest.getInstance("SHA-256")
				.digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
		return this.jdbc.sql("SELECT conversation_id FROM conversation_participants WHERE participant_key = :key")
			.param("key", key)
			.query(Long.class)
			.list();
	}

}
