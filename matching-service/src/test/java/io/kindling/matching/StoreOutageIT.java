package io.kindling.matching;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Response;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While Redis or MariaDB is away, a call that needs it is a 503 the client may retry,
 * never a 500 or a hang; once the store is back, sessions, joins and pushes work again
 * without restarting the service. Bans are read on every join here (no cache), so a join
 * needs MariaDB.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "kindling.matching.ban-cache-ttl=0")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class StoreOutageIT {

	@LocalServerPort
	int port;

	@Autowired
	@Qualifier("matchedListener")
	RedisMessageListenerContainer subscription;

	@Test
	void whileRedisIsAwayCallsAnswer503AndOnceBackJoinsAndPushesWorkAgain() throws Exception {
		Api api = new Api(this.port);
		String before = api.session();
		RealServersExtension.redis().stop();
		try {
			List<Response> refused = List.of(api.send("POST", "/api/sessions", null, null), api.join(before, 1, 2),
					api.status(before), api.leave(before));
			for (Response response : refused) {
				assertThat(response.status()).as(response.body()).isEqualTo(503);
				assertThat(response.header("Retry-After")).hasValue("1");
				assertThat(response.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
				assertThat(response.field("type")).isEqualTo("https://kindling.io/problems/unavailable");
			}
		}
		finally {
			RealServersExtension.redis().start();
		}

		String waiting = api.session();
		String completing = api.session();
		EventStream stream = openStream(api, waiting);
		BlockingQueue<String> lines = stream.lines();
		try {
			assertThat(api.join(waiting, 1, 2).status()).isEqualTo(202);
			Response formed = api.join(completing, 1, 2);
			assertThat(formed.status()).as(formed.body()).isEqualTo(200);
			// the push goes out over pub/sub, whose subscription the restart broke
			assertThat(StreamLines.next(lines, 20)).isEqualTo("event:matched");
			assertThat(Api.JSON.readTree(StreamLines.next(lines, 5).substring("data:".length())))
				.isEqualTo(formed.json());
		}
		finally {
			stream.close();
		}
	}

	@Test
	void aRoomFormedWhileUnsubscribedReachesItsStreamOnceSubscribedAgainAndOnlyOnce() throws Exception {
		Api api = new Api(this.port);
		String waiting = api.session();
		String completing = api.session();
		EventStream stream = openStream(api, waiting);
		BlockingQueue<String> lines = stream.lines();
		try {
			assertThat(api.join(waiting, 2, 2).status()).isEqualTo(202);
			// the instance's subscription is gone, as while Redis restarts: the room's
			// message reaches nobody
			this.subscription.stop();
			Response formed = api.join(completing, 2, 2);
			assertThat(formed.status()).as(formed.body()).isEqualTo(200);
			assertNothingWithin(lines, 1);

			this.subscription.start();
			assertThat(StreamLines.next(lines, 10)).isEqualTo("event:matched");
			assertThat(Api.JSON.readTree(StreamLines.next(lines, 5).substring("data:".length())))
				.isEqualTo(formed.json());
			assertThat(StreamLines.next(lines, 5)).isEqualTo("id:" + formed.field("room_id"));

			// a second catch-up finds the same room and does not send it again
			this.subscription.stop();
			this.subscription.start();
			assertNothingWithin(lines, 2);
		}
		finally {
			stream.close();
			if (!this.subscription.isRunning()) {
				this.subscription.start();
			}
		}
	}

	@Test
	void whileMariaDbIsAwayAJoinIs503WithinSecondsAndChangesNothing() throws InterruptedException {
		Api api = new Api(this.port);
		String first = api.session();
		String second = api.session();
		RealServersExtension.mariaDb().stop();
		try {
			long started = System.nanoTime();
			Response refused = api.join(first, 3, 2);
			long tookMillis = (System.nanoTime() - started) / 1_000_000;
			assertThat(refused.status()).as(refused.body()).isEqualTo(503);
			assertThat(refused.header("Retry-After")).hasValue("1");
			assertThat(refused.field("type")).isEqualTo("https://kindling.io/problems/unavailable");
			// the pool's connection timeout, not Hikari's default 30 s
			assertThat(tookMillis).isLessThan(10_000);
			// Redis alone answers a poll
			assertThat(api.status(first).field("status")).isEqualTo("idle");
		}
		finally {
			RealServersExtension.mariaDb().start();
		}
		// as a client retries: a pooled connection that the restart broke may answer one
		// more 503 before the pool drops it
		Response rejoined = api.join(first, 3, 2);
		for (int attempt = 1; rejoined.status() == 503 && attempt < 10; attempt++) {
			Thread.sleep(1_000);
			rejoined = api.join(first, 3, 2);
		}
		assertThat(rejoined.status()).as(rejoined.body()).isEqualTo(202);
		Response formed = api.join(second, 3, 2);
		assertThat(formed.status()).as(formed.body()).isEqualTo(200);
		assertThat(formed.json().get("conversation_id").asLong()).isPositive();
	}

	/** Opens the token's event stream and waits for its first line. */
	private static EventStream openStream(Api api, String token) throws InterruptedException {
		EventStream stream = api.http().events("/api/matching/events", token);
		assertThat(stream.nextLine(Duration.ofSeconds(10))).isEqualTo(":subscribed");
		return stream;
	}

	private static void assertNothingWithin(BlockingQueue<String> lines, int seconds) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
		String line;
		while ((line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) != null) {
			assertThat(line).as("no event within %d s", seconds).isEmpty();
		}
	}

}
