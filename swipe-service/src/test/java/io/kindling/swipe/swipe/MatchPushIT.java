package io.kindling.swipe.swipe;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.test.CorsChecks;
import io.kindling.swipe.SwipeApplication;
import io.kindling.swipe.TestApi;
import io.kindling.swipe.TestTokens;
import io.kindling.swipe.match.MatchPush;
import io.kindling.swipe.match.MatchRef;
import io.kindling.swipe.match.MatchStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Matches pushed to both people's event streams ({@code GET /api/events}), on two
 * instances of the service: after the commit and never for a rolled-back match, once per
 * match however the two likes race, with ids a reconnecting client gives back to get
 * exactly what it missed; opened with the JWT or a single-use ticket; CORS for the pages
 * of an allowed origin.
 */
class MatchPushIT extends SwipeTestBase {

	static final String APP = "https://app.example.com";

	/** A second instance, on the same Redis, database and clock as the test's own. */
	static ConfigurableApplicationContext instanceB;

	@Autowired
	JsonMapper json;

	@Autowired
	MatchStore matches;

	@Autowired
	MatchPush push;

	@Autowired
	TransactionTemplate transactions;

	TestApi b;

	@BeforeEach
	void secondInstance() {
		if (instanceB == null) {
			Clock clock = this.clock;
			instanceB = new SpringApplicationBuilder(SwipeApplication.class)
				.initializers((context) -> ((GenericApplicationContext) context).registerBean("testClock", Clock.class,
						() -> clock, (definition) -> definition.setPrimary(true)))
				.run("--server.port=0", "--kindling.swipe.daily-likes=5", "--kindling.swipe.reconciler.interval=1h",
						"--kindling.web.allowed-origins=" + APP, "--spring.jmx.enabled=false",
						"--logging.level.root=WARN");
		}
		this.b = new TestApi(Integer.parseInt(instanceB.getEnvironment().getProperty("local.server.port", "0")));
	}

	@AfterAll
	static void stopSecondInstance() throws InterruptedException {
		if (instanceB != null) {
			// bounded: a pub/sub subscription recovering at shutdown can block close()
			Thread closing = Thread.ofPlatform().daemon().start(instanceB::close);
			closing.join(Duration.ofSeconds(15));
			instanceB = null;
		}
	}

	@Test
	void aMatchAndItsRemovalArePushedToBothPeopleOnWhicheverInstanceEachIsConnected() throws Exception {
		long ana = newUser();
		long ben = newUser();
		// Ana's stream on B, opened as a browser does, with a ticket A issued
		EventStream anas = open(this.b, events("?ticket=" + ticket(this.api, ana)));
		EventStream bens = open(this.api, events("").bearer(TestTokens.forUser(ben)));

		assertThat(this.api.swipe(ana, key(), ben, "LIKE").status()).isEqualTo(200);
		JsonNode match = this.json.readTree(this.b.swipe(ben, key(), ana, "LIKE").body());
		assertThat(match.get("matched").asBoolean()).isTrue();
		long matchId = match.get("match_id").asLong();
		Instant matchedAt = Instant.parse(match.get("matched_at").asString());

		ServerSentEvent toAna = anas.nextEvent();
		ServerSentEvent toBen = bens.nextEvent();
		assertEvent(toAna, "match_created", matchId, ben, matchedAt);
		assertEvent(toBen, "match_created", matchId, ana, matchedAt);
		// what the poll answers is what was pushed, beside the conversation's state
		JsonNode polled = this.json.readTree(this.b.get("/api/matches", ben).body()).get("matches").get(0);
		JsonNode pushed = this.json.readTree(toBen.data());
		for (String field : List.of("match_id", "user_id", "matched_at")) {
			assertThat(polled.get(field)).isEqualTo(pushed.get(field));
		}
		assertThat(polled.get("last_message").isNull()).isTrue();
		assertThat(polled.get("unread_count").asLong()).isZero();

		assertThat(this.b.delete("/api/matches/" + matchId, ana).status()).isEqualTo(204);
		ServerSentEvent removedForAna = anas.nextEvent();
		assertEvent(removedForAna, "match_removed", matchId, ben, matchedAt);
		assertEvent(bens.nextEvent(), "match_removed", matchId, ana, matchedAt);
		assertThat(eventIdOf(removedForAna)).isGreaterThan(eventIdOf(toAna));
		// unmatching again changes nothing and pushes nothing
		assertThat(this.api.delete("/api/matches/" + matchId, ben).status()).isEqualTo(204);
		anas.assertNoEventWithin(Duration.ofSeconds(1));
		bens.assertNoEventWithin(Duration.ZERO);
		anas.close();
		bens.close();
	}

	@Test
	void aMatchEndedByABlockIsPushedAsRemovedToBothPeopleAndABlockWithoutAMatchPushesNothing() throws Exception {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		EventStream anas = open(this.b, events("?ticket=" + ticket(this.api, ana)));
		EventStream bens = open(this.api, events("").bearer(TestTokens.forUser(ben)));
		EventStream cleos = open(this.api, events("").bearer(TestTokens.forUser(cleo)));
		long matchId = match(ana, ben);
		ServerSentEvent created = anas.nextEvent();
		assertEvent(created, "match_created", matchId, ben, null);
		Instant matchedAt = Instant.parse(this.json.readTree(created.data()).get("matched_at").asString());
		assertEvent(bens.nextEvent(), "match_created", matchId, ana, matchedAt);

		// Ben blocks Ana on instance B; her stream is on B, his on A
		assertThat(this.b.block(ben, ana).status()).isEqualTo(201);
		assertEvent(anas.nextEvent(), "match_removed", matchId, ben, matchedAt);
		assertEvent(bens.nextEvent(), "match_removed", matchId, ana, matchedAt);
		// blocking again, and unmatching the ended match, push nothing
		assertThat(this.api.block(ben, ana).status()).isEqualTo(200);
		assertThat(this.api.delete("/api/matches/" + matchId, ana).status()).isEqualTo(204);
		// a block of someone never matched pushes nothing either
		assertThat(this.api.block(cleo, ana).status()).isEqualTo(201);
		anas.assertNoEventWithin(Duration.ofSeconds(1));
		bens.assertNoEventWithin(Duration.ZERO);
		cleos.assertNoEventWithin(Duration.ZERO);
		anas.close();
		bens.close();
		cleos.close();
	}

	@Test
	void aClientReconnectingWithLastEventIdGetsExactlyWhatItMissed() throws Exception {
		long ana = newUser();
		List<Long> others = newUsers(3);
		EventStream first = open(this.api, events("").bearer(TestTokens.forUser(ana)));
		long firstMatch = match(ana, others.get(0));
		ServerSentEvent seen = first.nextEvent();
		assertEvent(seen, "match_created", firstMatch, others.get(0), null);
		first.close();

		// while away: two matches made, one removed
		long secondMatch = match(ana, others.get(1));
		long thirdMatch = match(others.get(2), ana);
		assertThat(this.api.delete("/api/matches/" + firstMatch, others.get(0)).status()).isEqualTo(204);

		// a browser's own reconnect sends the header
		EventStream back = resume(this.b,
				events("").bearer(TestTokens.forUser(ana)).header("Last-Event-ID", seen.id()));
		ServerSentEvent second = back.nextEvent();
		ServerSentEvent third = back.nextEvent();
		ServerSentEvent removed = back.nextEvent();
		assertEvent(second, "match_created", secondMatch, others.get(1), null);
		assertEvent(third, "match_created", thirdMatch, others.get(2), null);
		assertEvent(removed, "match_removed", firstMatch, others.get(0), null);
		back.assertNoEventWithin(Duration.ofSeconds(1));
		back.close();

		// a page with a new ticket says where it stands beside it
		EventStream fromSecond = resume(this.api,
				events("?ticket=" + ticket(this.b, ana) + "&last_event_id=" + second.id()));
		assertThat(fromSecond.nextEvent().id()).isEqualTo(third.id());
		assertThat(fromSecond.nextEvent().id()).isEqualTo(removed.id());
		EventStream upToDate = resume(this.b,
				events("?ticket=" + ticket(this.b, ana) + "&last_event_id=" + removed.id()));
		fromSecond.assertNoEventWithin(Duration.ofSeconds(1));
		upToDate.assertNoEventWithin(Duration.ZERO);

		// and both go on getting what comes next, once
		long fourthMatch = match(ana, newUser());
		assertThat(fromSecond.nextEvent().id()).isEqualTo(upToDate.nextEvent().id());
		fromSecond.assertNoEventWithin(Duration.ofSeconds(1));
		upToDate.assertNoEventWithin(Duration.ZERO);
		assertThat(fourthMatch).isPositive();
		fromSecond.close();
		upToDate.close();
	}

	@Test
	void aStreamThatDropsBeforeItsFirstEventGetsWhatCameInBetweenFromItsPosition() throws Exception {
		long ana = newUser();
		long ben = newUser();
		match(ana, newUser());
		EventStream first = resume(this.api, events("").bearer(TestTokens.forUser(ana)));
		ServerSentEvent position = first.nextEvent("position");
		assertThat(this.json.readTree(position.data()).get("last_event_id").asString()).isEqualTo(position.id());
		first.assertNoEventWithin(Duration.ofSeconds(1));
		first.close();

		// made while no stream was open: a stream opened now without an id never hears of
		// it
		long missed = match(ben, ana);
		EventStream fromNow = open(this.b, events("").bearer(TestTokens.forUser(ana)));
		fromNow.assertNoEventWithin(Duration.ofSeconds(1));
		fromNow.close();
		// one opened from the position does, once
		EventStream back = resume(this.b,
				events("?ticket=" + ticket(this.api, ana) + "&last_event_id=" + position.id()));
		assertEvent(back.nextEvent(), "match_created", missed, ben, null);
		back.assertNoEventWithin(Duration.ofSeconds(1));
		back.close();
	}

	@Test
	void aTicketOpensOneStreamOnceWithinAMinuteAndNothingElse() throws Exception {
		long ana = newUser();
		String used = ticket(this.api, ana);
		open(this.b, events("?ticket=" + used)).close();
		assertUnauthenticated(this.api.http().send(Request.get("/api/events?ticket=" + used)));
		assertUnauthenticated(this.b.http().send(Request.get("/api/events?ticket=" + used)));

		String late = ticket(this.b, ana);
		this.clock.advance(Duration.ofSeconds(60));
		assertUnauthenticated(this.api.http().send(Request.get("/api/events?ticket=" + late)));
		assertUnauthenticated(
				this.api.http().send(Request.get("/api/events?ticket=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")));

		// a ticket opens the stream and nothing else, and does not make another ticket
		String fresh = ticket(this.api, ana);
		assertUnauthenticated(this.api.http().send(Request.get("/api/matches?ticket=" + fresh)));
		assertUnauthenticated(this.api.http().send(Request.of("POST", "/api/events/tickets?ticket=" + fresh)));
		open(this.api, events("?ticket=" + fresh)).close();

		// an id no stream sent is refused, not taken for "from the start"
		Response badId = this.api.http()
			.send(Request.get("/api/events").bearer(TestTokens.forUser(ana)).header("Last-Event-ID", "yesterday"));
		assertThat(badId.status()).as(badId.body()).isEqualTo(400);
		assertThat(this.json.readTree(badId.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/invalid-request");
	}

	@Test
	void aMatchWhoseTransactionRollsBackIsNeverPushed() throws Exception {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		EventStream anas = open(this.b, events("").bearer(TestTokens.forUser(ana)));
		this.transactions.executeWithoutResult((status) -> {
			this.push.created(this.matches.createIfAbsent(ana, ben, this.clock.instant()).match());
			status.setRollbackOnly();
		});
		long committed = this.transactions.execute((status) -> {
			MatchRef match = this.matches.createIfAbsent(ana, cleo, this.clock.instant()).match();
			this.push.created(match);
			return match.matchId();
		});
		assertEvent(anas.nextEvent(), "match_created", committed, cleo, null);
		anas.assertNoEventWithin(Duration.ofSeconds(1));
		anas.close();
	}

	@Test
	void twoPeopleLikingEachOtherAtOnceGetOnePushEach() throws Exception {
		int pairs = 20;
		List<Long> users = newUsers(2 * pairs);
		Map<Long, EventStream> streams = new HashMap<>();
		for (int i = 0; i < users.size(); i++) {
			long user = users.get(i);
			streams.put(user, open((i % 2 == 0) ? this.api : this.b, events("").bearer(TestTokens.forUser(user))));
		}
		CountDownLatch go = new CountDownLatch(1);
		List<Future<Response>> likes = new ArrayList<>();
		try (ExecutorService executor = Executors.newFixedThreadPool(2 * pairs)) {
			for (int pair = 0; pair < pairs; pair++) {
				long one = users.get(2 * pair);
				long other = users.get(2 * pair + 1);
				likes.add(executor.submit(() -> {
					go.await();
					return this.api.swipe(one, key(), other, "LIKE");
				}));
				likes.add(executor.submit(() -> {
					go.await();
					return this.b.swipe(other, key(), one, "LIKE");
				}));
			}
			go.countDown();
			for (Future<Response> like : likes) {
				assertThat(like.get(60, TimeUnit.SECONDS).status()).isEqualTo(200);
			}
		}
		for (int pair = 0; pair < pairs; pair++) {
			long one = users.get(2 * pair);
			long other = users.get(2 * pair + 1);
			long matchId = this.json.readTree(this.api.get("/api/matches", one).body())
				.get("matches")
				.get(0)
				.get("match_id")
				.asLong();
			assertEvent(streams.get(one).nextEvent(), "match_created", matchId, other, null);
			assertEvent(streams.get(other).nextEvent(), "match_created", matchId, one, null);
		}
		for (EventStream stream : streams.values()) {
			stream.assertNoEventWithin(Duration.ofMillis(50));
			stream.close();
		}
	}

	@Test
	void aMatchMadeWhileTheSubscriptionIsDownReachesTheStreamOnceItIsBack() throws Exception {
		RedisMessageListenerContainer subscription = instanceB.getBean(RedisMessageListenerContainer.class);
		long ana = newUser();
		EventStream anas = open(this.b, events("").bearer(TestTokens.forUser(ana)));
		try {
			// as while Redis restarts: the match's message reaches nobody on B
			subscription.stop();
			long matchId = match(ana, newUser());
			anas.assertNoEventWithin(Duration.ofSeconds(1));

			subscription.start();
			assertEvent(anas.nextEvent(), "match_created", matchId, null, null);
			// a second catch-up finds nothing new
			subscription.stop();
			subscription.start();
			anas.assertNoEventWithin(Duration.ofSeconds(2));
		}
		finally {
			anas.close();
			if (!subscription.isRunning()) {
				subscription.start();
			}
		}
	}

	@Test
	void aPreflightFromTheAllowedOriginGetsTheCorsHeadersAndOneFromAnotherOriginDoesNot() throws Exception {
		String headers = "authorization,content-type,idempotency-key";
		CorsChecks.assertPreflightAllowed(this.b.http().send(CorsChecks.preflight("/api/swipes", APP, "POST", headers)),
				APP, "POST", headers);
		CorsChecks.assertRefused(
				this.b.http().send(CorsChecks.preflight("/api/swipes", "https://evil.example", "POST", headers)));
		// without the setting, no origin but the service's own
		CorsChecks.assertRefused(this.api.http().send(CorsChecks.preflight("/api/swipes", APP, "POST", headers)));

		// the event stream and a refusal carry them too, so a page can read both
		long ana = newUser();
		EventStream stream = open(this.b, events("?ticket=" + ticket(this.api, ana)).header("Origin", APP));
		assertThat(stream.header("Access-Control-Allow-Origin")).isEqualTo(APP);
		stream.close();
		Response refused = this.b.http().send(Request.get("/api/matches").header("Origin", APP));
		assertThat(refused.status()).isEqualTo(401);
		CorsChecks.assertAllowed(refused, APP);
	}

	/** Both like each other (the second one's like makes the match); the match id. */
	private long match(long first, long second) {
		assertThat(this.api.swipe(first, key(), second, "LIKE").status()).isEqualTo(200);
		JsonNode match = this.json.readTree(this.b.swipe(second, key(), first, "LIKE").body());
		assertThat(match.get("matched").asBoolean()).isTrue();
		return match.get("match_id").asLong();
	}

	private void assertEvent(ServerSentEvent event, String type, long matchId, Long otherUser, Instant matchedAt) {
		assertThat(event.name()).isEqualTo(type);
		assertThat(event.id()).matches("\\d+-\\d+");
		JsonNode data = this.json.readTree(event.data());
		assertThat(data.propertyNames()).containsExactlyInAnyOrder("match_id", "user_id", "matched_at");
		assertThat(data.get("match_id").asLong()).isEqualTo(matchId);
		if (otherUser != null) {
			assertThat(data.get("user_id").asLong()).isEqualTo(otherUser);
		}
		if (matchedAt != null) {
			assertThat(Instant.parse(data.get("matched_at").asString())).isEqualTo(matchedAt);
		}
	}

	private static long eventIdOf(ServerSentEvent event) {
		String[] parts = event.id().split("-");
		return Long.parseLong(parts[0]) * 1_000_000 + Long.parseLong(parts[1]);
	}

	private String ticket(TestApi api, long userId) {
		Response issued = api.http().send(Request.of("POST", "/api/events/tickets").bearer(TestTokens.forUser(userId)));
		assertThat(issued.status()).as(issued.body()).isEqualTo(201);
		JsonNode body = this.json.readTree(issued.body());
		assertThat(Instant.parse(body.get("expires_at").asString())).isBetween(this.clock.instant(),
				this.clock.instant().plusSeconds(60));
		return body.get("ticket").asString();
	}

	private void assertUnauthenticated(Response response) {
		assertThat(response.status()).as(response.body()).isEqualTo(401);
		assertThat(response.header("Content-Type").orElse("")).startsWith("application/problem+json");
		assertThat(this.json.readTree(response.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/unauthenticated");
		assertThat(response.header("WWW-Authenticate").orElse("")).startsWith("Bearer");
	}

	private static Request events(String query) {
		return Request.get("/api/events" + query);
	}

	/** A stream opened without an id, past the position it is told first. */
	private static EventStream open(TestApi api, Request request) throws InterruptedException {
		EventStream stream = resume(api, request);
		stream.nextEvent("position");
		return stream;
	}

	/** A stream opened with the id of the last event the client got. */
	private static EventStream resume(TestApi api, Request request) throws InterruptedException {
		return api.http().events(request).awaitFirstLine(":subscribed");
	}

}
