package io.kindling.swipe.message;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.redis.LuaScript;
import io.kindling.swipe.TestTokens;
import io.kindling.swipe.match.MatchStore;
import io.kindling.swipe.message.MessageStore.Draft;
import io.kindling.swipe.swipe.SwipeTestBase;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A match's messages through the API, on the real MariaDB and Redis: each stored once
 * with its text-free {@code MESSAGE_SENT} row, pushed to both people's streams, paged
 * newest first, read marks and unread counts, and the thread gone for both once the match
 * ends.
 */
class MessageIT extends SwipeTestBase {

	@Autowired
	JsonMapper json;

	@Autowired
	MatchStore matches;

	@Autowired
	TransactionTemplate transactions;

	@Autowired
	MessageWriter writer;

	@Autowired
	MessageStore store;

	@Autowired
	MessageOutbox outbox;

	@Autowired
	MessagePush push;

	@Autowired
	MessageRateLimit rateLimit;

	@Autowired
	MeterRegistry meters;

	@Autowired
	DataSource dataSource;

	@Test
	void aMessageIsStoredOnceWithItsEventAndARetryGetsTheSameAnswer() {
		long ana = newUser();
		long ben = newUser();
		long matchId = match(ana, ben);

		Response sent = send(ana, matchId, "hello \uD83D\uDD25\nhow are you?", "m-1");
		assertThat(sent.status()).as(sent.body()).isEqualTo(201);
		JsonNode message = sent.json();
		assertThat(message.propertyNames()).containsExactlyInAnyOrder("message_id", "match_id", "from_user_id", "text",
				"client_message_id", "sent_at");
		assertThat(message.get("match_id").asLong()).isEqualTo(matchId);
		assertThat(message.get("from_user_id").asLong()).isEqualTo(ana);
		assertThat(message.get("text").asString()).isEqualTo("hello \uD83D\uDD25\nhow are you?");
		assertThat(message.get("client_message_id").asString()).isEqualTo("m-1");
		long messageId = message.get("message_id").asLong();

		// a retry: the same bytes, nothing stored twice
		Response again = send(ana, matchId, "hello \uD83D\uDD25\nhow are you?", "m-1");
		assertThat(again.status()).isEqualTo(200);
		assertThat(again.body()).isEqualTo(sent.body());
		// the same id with other text is a mistake, and changes nothing
		Response other = send(ana, matchId, "something else", "m-1");
		assertProblem(other, 409, "client-message-id-reused");
		// the id is the sender's: Ben may use it too
		assertThat(send(ben, matchId, "hi!", "m-1").status()).isEqualTo(201);

		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", matchId)).isEqualTo(2);
		List<Map<String, Object>> events = this.jdbc
			.sql("SELECT event_type, event_key, payload FROM message_outbox WHERE event_key = ? ORDER BY id")
			.param(String.valueOf(matchId))
			.query()
			.listOfRows();
		assertThat(events).hasSize(2);
		assertThat(events.get(0)).containsEntry("event_type", "MESSAGE_SENT");
		JsonNode payload = this.json.readTree((String) events.get(0).get("payload"));
		assertThat(payload.propertyNames()).containsExactlyInAnyOrder("event_id", "event_type", "match_id",
				"message_id", "from_user_id", "to_user_id", "sent_at");
		assertThat(payload.get("message_id").asLong()).isEqualTo(messageId);
		assertThat(payload.get("from_user_id").asLong()).isEqualTo(ana);
		assertThat(payload.get("to_user_id").asLong()).isEqualTo(ben);
		assertThat(payload.get("sent_at").asString()).isEqualTo(message.get("sent_at").asString());
		assertThat((String) events.get(0).get("payload")).doesNotContain("hello");
	}

	@Test
	void aBadMessageIsRefusedAndStoresNothing() {
		long ana = newUser();
		long matchId = match(ana, newUser());
		String fire = "\uD83D\uDD25";
		assertThat(send(ana, matchId, fire.repeat(2000), "long-enough").status()).isEqualTo(201);
		assertProblem(send(ana, matchId, fire.repeat(2001), "too-long"), 400, "bad-message");
		assertProblem(send(ana, matchId, "", "empty"), 400, "bad-message");
		assertProblem(send(ana, matchId, " \n ", "blank"), 400, "bad-message");
		assertProblem(send(ana, matchId, "tab\there", "control"), 400, "bad-message");
		assertProblem(post(ana, matchId, "{\"text\":\"lone \\ud800\",\"client_message_id\":\"lone\"}"), 400,
				"bad-message");
		assertProblem(post(ana, matchId, "{\"text\":\"no id\"}"), 400, "bad-message");
		assertProblem(send(ana, matchId, "spaced id", "has space"), 400, "bad-message");
		assertProblem(send(ana, matchId, "long id", "x".repeat(65)), 400, "bad-message");
		assertProblem(post(ana, matchId, "{\"client_message_id\":\"no-text\"}"), 400, "bad-message");
		// refused before it is stored, though its answer is written where its writer
		// completes it
		assertProblem(this.api.http()
			.send(Request.of("POST", "/api/matches/" + matchId + "/messages")
				.bearer(TestTokens.forUser(ana))
				.header("Accept", "text/html")
				.json("{\"text\":\"as a page\",\"client_message_id\":\"html\"}")), 406, "not-acceptable");
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", matchId)).isOne();
	}

	@Test
	void onlyTheTwoPeopleOfALiveMatchSeeItsThreadAndAnUnmatchEndsItForBoth() {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		long matchId = match(ana, ben);
		assertThat(send(ana, matchId, "hi", "a1").status()).isEqualTo(201);
		long messageId = page(ben, matchId, "").get("messages").get(0).get("message_id").asLong();

		assertProblem(send(cleo, matchId, "let me in", "c1"), 404, "no-such-match");
		assertProblem(this.api.get("/api/matches/" + matchId + "/messages", cleo), 404, "no-such-match");
		assertProblem(read(cleo, matchId, messageId), 404, "no-such-match");
		assertProblem(send(ana, 9_000_000_000_000L, "nobody", "n1"), 404, "no-such-match");

		assertThat(this.api.delete("/api/matches/" + matchId, ben).status()).isEqualTo(204);
		for (long user : List.of(ana, ben)) {
			assertProblem(send(user, matchId, "still there?", "after-" + user), 404, "no-such-match");
			assertProblem(this.api.get("/api/matches/" + matchId + "/messages", user), 404, "no-such-match");
			assertProblem(read(user, matchId, messageId), 404, "no-such-match");
		}
		// a retry of a message sent before the end is refused too: the thread is gone
		assertProblem(send(ana, matchId, "hi", "a1"), 404, "no-such-match");
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", matchId)).isOne();
	}

	@Test
	void aBlockEndsTheThreadForBoth() {
		long ana = newUser();
		long ben = newUser();
		long matchId = match(ana, ben);
		assertThat(send(ben, matchId, "hey", "b1").status()).isEqualTo(201);
		assertThat(this.api.block(ana, ben).status()).isEqualTo(201);
		assertProblem(send(ben, matchId, "hello?", "b2"), 404, "no-such-match");
		assertProblem(this.api.get("/api/matches/" + matchId + "/messages", ana), 404, "no-such-match");
	}

	@Test
	void messagesArePagedNewestFirstWithoutGapsOrRepeats() {
		long ana = newUser();
		long ben = newUser();
		long matchId = match(ana, ben);
		for (int i = 0; i < 7; i++) {
			assertThat(send((i % 2 == 0) ? ana : ben, matchId, "message " + i, "p" + i).status()).isEqualTo(201);
		}
		List<String> texts = new ArrayList<>();
		String cursor = "";
		int pages = 0;
		do {
			JsonNode page = page(ben, matchId, "?limit=3" + (cursor.isEmpty() ? "" : "&cursor=" + cursor));
			page.get("messages").forEach((message) -> texts.add(message.get("text").asString()));
			cursor = page.get("next_cursor").isNull() ? "" : page.get("next_cursor").asString();
			pages++;
		}
		while (!cursor.isEmpty());
		assertThat(pages).isEqualTo(3);
		assertThat(texts).containsExactly("message 6", "message 5", "message 4", "message 3", "message 2", "message 1",
				"message 0");
		assertProblem(this.api.get("/api/matches/" + matchId + "/messages?cursor=bogus", ana), 400, "bad-cursor");
		assertThat(this.api.get("/api/matches/" + matchId + "/messages?limit=101", ana).status()).isEqualTo(400);
	}

	@Test
	void theListOfMatchesShowsEachThreadsLastMessageAndUnreadCountUntilRead() {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		long withBen = match(ana, ben);
		long withCleo = match(cleo, ana);
		assertThat(send(ben, withBen, "one", "b1").status()).isEqualTo(201);
		assertThat(send(ben, withBen, "two", "b2").status()).isEqualTo(201);
		JsonNode three = send(ben, withBen, "three", "b3").json();
		assertThat(send(ana, withBen, "my own", "a1").status()).isEqualTo(201);

		Map<Long, JsonNode> listed = listed(ana);
		assertThat(listed.get(withBen).get("last_message").get("text").asString()).isEqualTo("my own");
		assertThat(listed.get(withBen).get("unread_count").asLong()).isEqualTo(3);
		assertThat(listed.get(withCleo).get("last_message").isNull()).isTrue();
		assertThat(listed.get(withCleo).get("unread_count").asLong()).isZero();
		assertThat(listed(ben).get(withBen).get("unread_count").asLong()).isOne();

		long second = page(ana, withBen, "").get("messages").get(2).get("message_id").asLong();
		assertThat(read(ana, withBen, second).status()).isEqualTo(204);
		assertThat(listed(ana).get(withBen).get("unread_count").asLong()).isOne();
		assertThat(read(ana, withBen, three.get("message_id").asLong()).status()).isEqualTo(204);
		assertThat(listed(ana).get(withBen).get("unread_count").asLong()).isZero();
		// a mark never moves back
		long first = page(ana, withBen, "").get("messages").get(3).get("message_id").asLong();
		assertThat(read(ana, withBen, first).status()).isEqualTo(204);
		assertThat(listed(ana).get(withBen).get("unread_count").asLong()).isZero();
		assertThat(listed(ben).get(withBen).get("unread_count").asLong()).isOne();

		// a message of another match is not one of this thread
		long cleos = send(cleo, withCleo, "psst", "c1").json().get("message_id").asLong();
		assertProblem(read(ana, withBen, cleos), 404, "no-such-message");
		assertThat(this.api.post("/api/matches/" + withBen + "/read", ana, "{}").status()).isEqualTo(400);
	}

	@Test
	void bothPeoplesStreamsHearOfAMessageTheSendersOtherDeviceTooAndOfItsReading() throws Exception {
		long ana = newUser();
		long ben = newUser();
		long matchId = match(ana, ben);
		EventStream anasPhone = open(ana);
		EventStream anasLaptop = open(ana);
		EventStream bens = open(ben);

		Response sent = send(ana, matchId, "are you there?", "q1");
		for (EventStream stream : List.of(anasPhone, anasLaptop, bens)) {
			ServerSentEvent created = stream.nextEvent("message_created");
			assertThat(this.json.readTree(created.data())).isEqualTo(sent.json());
		}
		assertThat(read(ben, matchId, sent.json().get("message_id").asLong()).status()).isEqualTo(204);
		for (EventStream stream : List.of(anasPhone, anasLaptop, bens)) {
			JsonNode read = this.json.readTree(stream.nextEvent("message_read").data());
			assertThat(read.propertyNames()).containsExactlyInAnyOrder("match_id", "reader_user_id", "message_id");
			assertThat(read.get("match_id").asLong()).isEqualTo(matchId);
			assertThat(read.get("reader_user_id").asLong()).isEqualTo(ben);
			assertThat(read.get("message_id").asLong()).isEqualTo(sent.json().get("message_id").asLong());
		}
		// a retry and a read that moves nothing tell nobody
		assertThat(send(ana, matchId, "are you there?", "q1").status()).isEqualTo(200);
		assertThat(read(ben, matchId, sent.json().get("message_id").asLong()).status()).isEqualTo(204);
		bens.assertNoEventWithin(Duration.ofSeconds(1));
		anasPhone.assertNoEventWithin(Duration.ZERO);
		for (EventStream stream : List.of(anasPhone, anasLaptop, bens)) {
			stream.close();
		}
	}

	@Test
	void thePushesLeaveOnceTheTransactionHasGivenBackItsConnection() {
		long ana = newUser();
		long ben = newUser();
		long matchId = match(ana, ben);
		List<String> tellers = List.of("user_events:{" + ana + "}", "user_events:{" + ben + "}");
		// for each append to Ana's or Ben's log: whether its thread was still in the
		// transaction (its connection bound, its after-commit work running)
		List<Boolean> inTransaction = new CopyOnWriteArrayList<>();
		try (LuaScript.Listening listening = LuaScript.listen((script, keys) -> {
			if (script.name().equals("append_event") && tellers.containsAll(keys)) {
				inTransaction.add(TransactionSynchronizationManager.isSynchronizationActive()
						|| !TransactionSynchronizationManager.getResourceMap().isEmpty());
			}
		})) {
			assertThat(send(ana, matchId, "coffee?", "p1").status()).isEqualTo(201);
		}
		assertThat(inTransaction).containsExactly(false, false);
	}

	@Test
	void theSameMessageSentAtOnceFromManyDevicesIsStoredOnce() throws Exception {
		long ana = newUser();
		long matchId = match(ana, newUser());
		int devices = 8;
		CountDownLatch go = new CountDownLatch(1);
		List<Future<Response>> answers = new ArrayList<>();
		try (ExecutorService executor = Executors.newFixedThreadPool(devices)) {
			for (int i = 0; i < devices; i++) {
				answers.add(executor.submit(() -> {
					go.await();
					return send(ana, matchId, "only once", "same-id");
				}));
			}
			go.countDown();
			List<Integer> statuses = new ArrayList<>();
			String body = null;
			for (Future<Response> answer : answers) {
				Response response = answer.get(60, TimeUnit.SECONDS);
				statuses.add(response.status());
				if (body == null) {
					body = response.body();
				}
				assertThat(response.body()).isEqualTo(body);
			}
			assertThat(statuses).containsOnlyOnce(201).containsOnly(201, 200);
		}
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", matchId)).isOne();
		assertThat(count("SELECT COUNT(*) FROM message_outbox WHERE event_key = ?", String.valueOf(matchId))).isOne();
	}

	@Test
	void sendsThatWaitTogetherAreStoredInOneTransactionEachWithItsOwnAnswer() throws Exception {
		// the writer of one match, held: a transaction has that match's row locked, and a
		// send there waits for it inside the writer's group
		long ana = newUser();
		long held = match(ana, newUser());
		int writer = this.writer.writerOf(held);
		long cat = newUser();
		long dan = newUser();
		long eve = newUser();
		long chat = matchOn(writer, cat, dan);
		long ended = matchOn(writer, eve, newUser());
		long fay = newUser();
		long tooFast = matchOn(writer, fay, newUser());
		assertThat(send(cat, chat, "before", "b1").status()).isEqualTo(201);
		// Fay's bucket empty until a minute from now
		this.redis.opsForHash()
			.putAll(MessageRateLimit.key(fay),
					Map.of("tokens", "0", "at", String.valueOf(this.clock.millis() + 60_000)));
		this.jdbc.sql("UPDATE matches SET removed_at = NOW(6) WHERE match_id = ?").param(ended).update();
		long groupsBefore = this.groups().count();
		double messagesBefore = this.groups().totalAmount();

		CountDownLatch release = new CountDownLatch(1);
		try (ExecutorService executor = Executors.newCachedThreadPool()) {
			Future<?> holder = lockRow(executor, held, release);
			try {
				Future<Response> first = executor.submit(() -> send(ana, held, "first", "h1"));
				// the writer has taken it as a group of its own, and waits for the lock
				awaitGroups(groupsBefore + 1);
				// in this order, each queued before the next is sent
				List<Future<Response>> queued = new ArrayList<>();
				String[][] sends = { { "cat", "hi", "c1" }, { "cat", "hi", "c1" }, { "dan", "hey", "c1" },
						{ "cat", "not hi", "c1" }, { "eve", "anyone?", "e1" }, { "ana", "let me in", "a1" },
						{ "cat", "before", "b1" }, { "fay", "wait for me", "f1" } };
				Map<String, Long> users = Map.of("ana", ana, "cat", cat, "dan", dan, "eve", eve, "fay", fay);
				Map<String, Long> matches = Map.of("eve", ended, "fay", tooFast);
				for (String[] one : sends) {
					long match = matches.getOrDefault(one[0], chat);
					queued.add(executor.submit(() -> send(users.get(one[0]), match, one[1], one[2])));
					awaitWaiting(queued.size());
				}
				release.countDown();
				holder.get(30, TimeUnit.SECONDS);
				assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);

				List<Response> answers = new ArrayList<>();
				for (Future<Response> answer : queued) {
					answers.add(answer.get(30, TimeUnit.SECONDS));
				}
				assertThat(answers.get(0).status()).isEqualTo(201);
				// the same send twice in one group: stored once, the second answered as a
				// retry
				assertThat(answers.get(1).status()).isEqualTo(200);
				assertThat(answers.get(1).body()).isEqualTo(answers.get(0).body());
				assertThat(answers.get(2).status()).isEqualTo(201);
				assertProblem(answers.get(3), 409, "client-message-id-reused");
				assertProblem(answers.get(4), 404, "no-such-match");
				assertProblem(answers.get(5), 404, "no-such-match");
				assertThat(answers.get(6).status()).isEqualTo(200);
				assertThat(answers.get(6).json().get("text").asString()).isEqualTo("before");
				// counted against her rate with the others, and refused alone
				assertProblem(answers.get(7), 429, "rate-limited");
				assertThat(answers.get(2).json().get("message_id").asLong())
					.isGreaterThan(answers.get(0).json().get("message_id").asLong());
			}
			finally {
				release.countDown();
			}
		}
		// one group for the held send, one for the seven of the eight that waited behind
		// it
		// within their rates
		assertThat(this.groups().count() - groupsBefore).isEqualTo(2);
		assertThat(this.groups().totalAmount() - messagesBefore).isEqualTo(1 + 7);
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", tooFast)).isZero();
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", chat)).isEqualTo(3);
		assertThat(count("SELECT COUNT(*) FROM message_outbox WHERE event_key = ?", String.valueOf(chat))).isEqualTo(3);
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", ended)).isZero();
	}

	@Test
	void sendsWaitingForTheirWriterHoldNoRequestThreadAndOnePastTheBoundIsRefused() throws Exception {
		long ana = newUser();
		long held = match(ana, newUser());
		int writer = this.writer.writerOf(held);
		// each sender within its burst: the bound is what refuses, not the rate
		int senders = MessageWriter.MAX_WAITING / 20;
		List<Long> users = new ArrayList<>();
		List<Long> chats = new ArrayList<>();
		for (int i = 0; i < senders; i++) {
			users.add(newUser());
			chats.add(matchOn(writer, users.get(i), newUser()));
		}
		long groupsBefore = this.groups().count();
		CountDownLatch release = new CountDownLatch(1);
		try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<?> holder = lockRow(executor, held, release);
			List<Future<Response>> waiting = new ArrayList<>();
			try {
				Future<Response> first = executor.submit(() -> send(ana, held, "first", "w-first"));
				awaitGroups(groupsBefore + 1);
				for (int i = 0; i < MessageWriter.MAX_WAITING; i++) {
					long user = users.get(i % senders);
					long chat = chats.get(i % senders);
					String id = "w" + i;
					waiting.add(executor.submit(() -> send(user, chat, "waiting", id)));
				}
				awaitWaiting(MessageWriter.MAX_WAITING);
				// far more sends wait than the server has request threads, and other
				// calls are answered all the same
				assertThat(this.api.get("/api/matches", ana).status()).isEqualTo(200);
				Response over = send(users.get(0), chats.get(0), "one too many", "w-over");
				assertProblem(over, 503, "overloaded");
				assertThat(over.header("Retry-After")).hasValue("1");
				assertThat(this.writer.waiting()).isEqualTo(MessageWriter.MAX_WAITING);

				release.countDown();
				holder.get(30, TimeUnit.SECONDS);
				assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
				for (Future<Response> answer : waiting) {
					Response sent = answer.get(60, TimeUnit.SECONDS);
					assertThat(sent.status()).as(sent.body()).isEqualTo(201);
				}
			}
			finally {
				release.countDown();
			}
		}
		assertThat(count("SELECT COUNT(*) FROM messages WHERE client_message_id = ?", "w-over")).isZero();
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", chats.get(0)))
			.isEqualTo(MessageWriter.MAX_WAITING / senders);
	}

	@Test
	void aMessagesEventCarriesTheTraceOfTheRequestThatSentItThoughItsWriterStoredIt() {
		long ana = newUser();
		long matchId = match(ana, newUser());
		String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
		Response sent = this.api.http()
			.send(Request.of("POST", "/api/matches/" + matchId + "/messages")
				.bearer(TestTokens.forUser(ana))
				.header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
				.json("{\"text\":\"traced\",\"client_message_id\":\"t1\"}"));
		assertThat(sent.status()).as(sent.body()).isEqualTo(201);
		String stored = this.jdbc.sql("SELECT traceparent FROM message_outbox WHERE event_key = ?")
			.param(String.valueOf(matchId))
			.query(String.class)
			.single();
		// the request's trace, and a span of the service's own in it
		assertThat(stored).startsWith("00-" + traceId + "-").endsWith("-01");
	}

	@Test
	void aGroupWhoseConnectionIsKilledIsWrittenAloneAndTheWriterStoresTheNextGroup() throws Exception {
		long ana = newUser();
		long held = match(ana, newUser());
		int writer = this.writer.writerOf(held);
		long cat = newUser();
		long chat = matchOn(writer, cat, newUser());
		long groupsBefore = this.groups().count();
		double failuresBefore = failedGroups();
		CountDownLatch release = new CountDownLatch(1);
		try (ExecutorService executor = Executors.newCachedThreadPool()) {
			Future<?> holder = lockRow(executor, held, release);
			try {
				Future<Response> first = executor.submit(() -> send(ana, held, "first", "k1"));
				// the writer's connection, in its group's transaction, waits for the lock
				long connection = awaitSharedLockWaiter();
				Future<Response> next = executor.submit(() -> send(cat, chat, "next", "k2"));
				awaitWaiting(1);
				this.jdbc.sql("KILL CONNECTION " + connection).update();
				awaitGone(connection);
				// the group failed as a whole: its send is written alone, on its own
				// thread, which waits for the lock too
				release.countDown();
				holder.get(30, TimeUnit.SECONDS);
				assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
				// and the writer stores its next group on a live connection
				assertThat(next.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
			}
			finally {
				release.countDown();
			}
		}
		// two groups, and only the first failed: the second ran on a live connection
		assertThat(this.groups().count() - groupsBefore).isEqualTo(2);
		assertThat(failedGroups() - failuresBefore).isEqualTo(1);
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", held)).isEqualTo(1);
		assertThat(count("SELECT COUNT(*) FROM message_outbox WHERE event_key = ?", String.valueOf(held))).isEqualTo(1);
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", chat)).isEqualTo(1);
		assertThat(send(cat, chat, "and on", "k3").status()).isEqualTo(201);
	}

	@Test
	void aGroupThatFailsAfterItsWriterOutlivedTheShutdownIsStillWrittenAlone() throws Exception {
		// a writer of its own, to stop: one thread, its meters apart
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		MessageWriter stopping = new MessageWriter(this.matches, this.store, this.outbox, this.push, this.rateLimit,
				this.transactions, this.dataSource, new MessageProperties(2, 20, 1), meters);
		long ana = newUser();
		long held = match(ana, newUser());
		CountDownLatch release = new CountDownLatch(1);
		try (ExecutorService executor = Executors.newCachedThreadPool()) {
			Future<?> holder = lockRow(executor, held, release);
			try {
				CompletableFuture<MessageWriter.Written> answer = stopping
					.write(new Draft(held, ana, "last words", "s1", Instant.now().truncatedTo(ChronoUnit.MICROS)));
				long connection = awaitSharedLockWaiter();
				// the writer does not end within its wait, and the shutdown goes on: no
				// more virtual threads for sends written alone
				long stopStarted = System.nanoTime();
				executor.submit(() -> {
					stopping.destroy();
					return null;
				}).get(30, TimeUnit.SECONDS);
				assertThat(Duration.ofNanos(System.nanoTime() - stopStarted))
					.isGreaterThanOrEqualTo(Duration.ofSeconds(5));
				assertThat(answer).isNotDone();

				this.jdbc.sql("KILL CONNECTION " + connection).update();
				awaitGone(connection);
				release.countDown();
				holder.get(30, TimeUnit.SECONDS);
				// its group failed, and the send was written alone all the same
				assertThat(answer.get(30, TimeUnit.SECONDS).created()).isTrue();
			}
			finally {
				release.countDown();
			}
		}
		assertThat(meters.get("kindling.swipe.messages.group.failures").counter().count()).isOne();
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", held)).isOne();
		assertThat(count("SELECT COUNT(*) FROM message_outbox WHERE event_key = ?", String.valueOf(held))).isOne();
	}

	@Test
	void aWriterKeepsItsConnectionOutOfAutocommitWhileItHasWorkAndGivesItBackOnceIdle() throws Exception {
		long ana = newUser();
		long ben = newUser();
		long matchId = match(ana, ben);
		assertThat(send(ana, matchId, "hello", "h0").status()).isEqualTo(201);
		long setsBefore = setStatements();
		for (int i = 1; i <= 10; i++) {
			assertThat(send((i % 2 == 0) ? ana : ben, matchId, "and again " + i, "h" + i).status()).isEqualTo(201);
		}
		// ten groups of one, none switching autocommit off before and on after, as a
		// connection taken from the pool for each would (twenty SET statements)
		assertThat(setStatements() - setsBefore).isLessThan(10);
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", matchId)).isEqualTo(11);
		// with nothing to write, the writer gives its connection back
		HikariPoolMXBean pool = this.dataSource.unwrap(HikariDataSource.class).getHikariPoolMXBean();
		Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> pool.getActiveConnections() == 0);
		assertThat(send(ana, matchId, "still here?", "h11").status()).isEqualTo(201);
	}

	/** SET statements the server has run, on any connection. */
	private long setStatements() {
		return this.jdbc
			.sql("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'COM_SET_OPTION'")
			.query(Long.class)
			.single();
	}

	@Test
	void aSenderPastTheRateGetsTooManyRequestsUntilATokenIsBack() {
		long ana = newUser();
		long matchId = match(ana, newUser());
		// Ana's bucket as another instance left it: empty, and refilled up to a minute
		// from now
		long later = this.clock.millis() + 60_000;
		this.redis.opsForHash().putAll(MessageRateLimit.key(ana), Map.of("tokens", "0", "at", String.valueOf(later)));
		Response refused = send(ana, matchId, "too fast", "r1");
		assertProblem(refused, 429, "rate-limited");
		assertThat(refused.header("Retry-After")).hasValue("1");
		assertThat(count("SELECT COUNT(*) FROM messages WHERE match_id = ?", matchId)).isZero();

		this.clock.advance(Duration.ofMillis(60_000 + 500));
		assertThat(send(ana, matchId, "now then", "r1").status()).isEqualTo(201);
	}

	/** A match of the two that the given writer stores. */
	private long matchOn(int writer, long one, long other) {
		while (true) {
			long match = match(one, other);
			if (this.writer.writerOf(match) == writer) {
				return match;
			}
			this.jdbc.sql("DELETE FROM matches WHERE match_id = ?").param(match).update();
		}
	}

	private double failedGroups() {
		return this.meters.get("kindling.swipe.messages.group.failures").counter().count();
	}

	private DistributionSummary groups() {
		return this.meters.get("kindling.swipe.messages.group").summary();
	}

	/**
	 * Locks the match's row in a transaction on another thread, until released.
	 * @return that transaction, once the row is locked
	 */
	private Future<?> lockRow(ExecutorService executor, long matchId, CountDownLatch release) {
		CountDownLatch locked = new CountDownLatch(1);
		Future<?> holder = executor.submit(() -> this.transactions.executeWithoutResult((tx) -> {
			this.jdbc.sql("SELECT match_id FROM matches WHERE match_id = ? FOR UPDATE")
				.param(matchId)
				.query()
				.listOfRows();
			locked.countDown();
			await(release);
		}));
		await(locked);
		return holder;
	}

	private void awaitGroups(long groups) {
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> this.groups().count() >= groups);
	}

	/** The id of the connection whose share lock waits, as the server lists it. */
	private long awaitSharedLockWaiter() {
		return Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> this.jdbc.sql("""
				SELECT ID FROM information_schema.PROCESSLIST
				WHERE INFO LIKE '%LOCK IN SHARE MODE%' AND INFO NOT LIKE '%PROCESSLIST%'
				""").query(Long.class).list(), (waiting) -> !waiting.isEmpty()).get(0);
	}

	private void awaitGone(long connection) {
		Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.until(() -> count("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?", connection) == 0);
	}

	private void awaitWaiting(int sends) {
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> this.writer.waiting() >= sends);
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private long match(long one, long other) {
		return this.transactions
			.execute((status) -> this.matches.createIfAbsent(one, other, this.clock.instant()).match().matchId());
	}

	private Response send(long userId, long matchId, String text, String clientMessageId) {
		return post(userId, matchId,
				this.json.writeValueAsString(Map.of("text", text, "client_message_id", clientMessageId)));
	}

	private Response post(long userId, long matchId, String body) {
		return this.api.post("/api/matches/" + matchId + "/messages", userId, body);
	}

	private Response read(long userId, long matchId, long messageId) {
		return this.api.post("/api/matches/" + matchId + "/read", userId, "{\"message_id\":" + messageId + "}");
	}

	private JsonNode page(long userId, long matchId, String query) {
		Response page = this.api.get("/api/matches/" + matchId + "/messages" + query, userId);
		assertThat(page.status()).as(page.body()).isEqualTo(200);
		return page.json();
	}

	private Map<Long, JsonNode> listed(long userId) {
		Response list = this.api.get("/api/matches", userId);
		assertThat(list.status()).as(list.body()).isEqualTo(200);
		Map<Long, JsonNode> byMatch = new java.util.HashMap<>();
		list.json().get("matches").forEach((match) -> byMatch.put(match.get("match_id").asLong(), match));
		return byMatch;
	}

	private EventStream open(long userId) throws InterruptedException {
		EventStream stream = this.api.http()
			.events(Request.get("/api/events").bearer(TestTokens.forUser(userId)))
			.awaitFirstLine(":subscribed");
		stream.nextEvent("position");
		return stream;
	}

	private long count(String sql, Object param) {
		return this.jdbc.sql(sql).param(param).query(Long.class).single();
	}

	private void assertProblem(Response response, int status, String type) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("Content-Type").orElse("")).startsWith("application/problem+json");
		assertThat(response.json().get("type").asString()).isEqualTo("https://kindling.io/problems/" + type);
	}

}
