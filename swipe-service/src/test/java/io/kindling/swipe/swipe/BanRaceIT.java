package io.kindling.swipe.swipe;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.http.Response;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ban and a match being written for the banned user cannot pass each other: the ban
 * locks the user's profile row, and a match's TX 2 locks both profiles and reads the bans
 * before it writes. A ban that comes while TX 2 holds its locks waits for it and then
 * ends the match; a TX 2 that comes after the ban makes no match.
 */
class BanRaceIT extends SwipeTestBase {

	static final String TOKEN = "test-operators-token";

	@Autowired
	JsonMapper json;

	@BeforeAll
	static void letTheTestUserSeeLockWaits() {
		// information_schema.INNODB_TRX needs PROCESS; the test server is thrown away
		// after
		RealServersExtension.mariaDb()
			.sql("GRANT PROCESS ON *.* TO '" + MariaDbServer.USER + "'@'127.0.0.1', '" + MariaDbServer.USER
					+ "'@'localhost';");
	}

	@Test
	void aBanWhileTheMatchIsBeingWrittenWaitsForItAndThenEndsIt() throws Exception {
		long ana = newUser();
		long ben = newUser();
		assertThat(this.api.swipe(ana, key(), ben, "LIKE").status()).isEqualTo(200);
		CountDownLatch reached = new CountDownLatch(1);
		CountDownLatch resume = new CountDownLatch(1);
		this.crashes.pauseBeforeMatch(ben, reached, resume);
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<Response> likeBack = threads.submit(() -> this.api.swipe(ben, key(), ana, "LIKE"));
			assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
			// TX 2 holds both profiles, has found no ban and is about to write the match:
			// the ban of ana comes now
			Future<Response> ban = threads.submit(() -> ban(ana));
			await().atMost(Duration.ofSeconds(30)).until(() -> ban.isDone() || lockWaits() > 0);
			boolean banWaited = !ban.isDone();
			resume.countDown();

			assertThat(this.json.readTree(likeBack.get().body()).get("matched").asBoolean()).isTrue();
			assertThat(ban.get().status()).as(ban.get().body()).isEqualTo(201);
			assertThat(banWaited).as("the ban waited for the match's transaction").isTrue();
			assertThat(this.jdbc.sql("SELECT removal_reason FROM matches WHERE user_id_1 = :low AND user_id_2 = :high")
				.param("low", Math.min(ana, ben))
				.param("high", Math.max(ana, ben))
				.query(String.class)
				.single()).isEqualTo("BANNED");
		}
		finally {
			resume.countDown();
		}
	}

	@Test
	void aMatchWhoseTransactionComesAfterTheBanIsNeverMade() {
		long ana = newUser();
		long ben = newUser();
		this.api.swipe(ana, key(), ben, "LIKE");
		// ben's like is stored and Redis has called it mutual; its TX 2 is left to the
		// reconciler
		this.crashes.crashAfterScript(ben);
		assertThat(this.api.swipe(ben, key(), ana, "LIKE").status()).isEqualTo(500);
		assertThat(unfinished(ben)).isOne();

		assertThat(ban(ana).status()).isEqualTo(201);
		this.clock.advance(Duration.ofSeconds(11));
		this.reconciler.reconcile();

		assertThat(unfinished(ben)).isZero();
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM matches WHERE user_id_1 = :low AND user_id_2 = :high")
			.param("low", Math.min(ana, ben))
			.param("high", Math.max(ana, ben))
			.query(Long.class)
			.single()).isZero();
	}

	private Response ban(long userId) {
		return this.api.http()
			.send("POST", "/api/admin/user-bans", TOKEN, "{\"user_id\":" + userId + ",\"reason\":\"race\"}");
	}

	private long unfinished(long userId) {
		return this.jdbc.sql("SELECT COUNT(*) FROM swipe_history WHERE user_id = :id AND response_status IS NULL")
			.param("id", userId)
			.query(Long.class)
			.single();
	}

	private long lockWaits() throws SQLException {
		try (Connection connection = DriverManager.getConnection(
				RealServersExtension.mariaDb().jdbcUrl("kindling_swipe"), MariaDbServer.USER, MariaDbServer.PASSWORD);
				Statement statement = connection.createStatement();
				ResultSet waits = statement
					.executeQuery("SELECT COUNT(*) FROM information_schema.INNODB_TRX WHERE trx_state = 'LOCK WAIT'")) {
			waits.next();
			return waits.getLong(1);
		}
	}

}
