package io.kindling.swipe.swipe;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

import io.kindling.infra.test.SseEvent;
import io.kindling.infra.test.SseStream;
import io.kindling.swipe.SwipeApplication;
import io.kindling.swipe.TestApi;
import io.kindling.swipe.TestTokens;
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
		SseStream anas = open(this.b, "?ticket=" + ticket(this.api, ana));
		SseStream bens = open(this.api, "", "Authorization", "Bearer " + TestTokens.forUser(ben));

		assertThat(this.api.swipe(ana, key(), ben, "LIKE").statusCode()).isEqualTo(200);
		JsonNode match = this.json.readTree(this.b.swipe(ben, key(), ana, "LIKE").body());
		assertThat(match.get("matched").asBoolean()).isTrue();
		long matchId = match.get("match_id").asLong();
		Instant matchedAt = Instant.parse(match.get("matched_at").asString());

		SseEvent toAna = anas.nextEvent();
		SseEvent toBen = bens.nextEvent();
		assertEvent(toAna, "match_created", matchId, ben, matchedAt);
		assertEvent(toBen, "match_created", matchId, ana, matchedAt);
		// what the poll answers is what was pushed
		JsonNode polled = this.json.readTree(this.b.get("/api/matches", ben).body()).get("matches").get(0);
		assertThat(polled).isEqualTo(this.json.readTree(toBen.data()));

		assertThat(this.b.delete("/api/matches/" + matchId, ana).statusCode()).isEqualTo(204);
		SseEvent removedForAna = anas.nextEvent();
		assertEvent(removedForAna, "match_removed", matchId, ben, matchedAt);
		assertEvent(bens.nextEvent(), "match_removed", matchId, ana, matchedAt);
		assertThat(eventIdOf(removedForAna)).isGreaterThan(eventIdOf(toAna));
		// unmatching again changes nothing and pushes nothing
		assertThat(this.api.delete("/api/matches/" + matchId, ben).statusCode()).isEqualTo(204);
		anas.assertNoEventWithin(Duration.ofSeconds(1));
		bens.assertNoEventWithin(Duration.ZERO);
		anas.close();
		bens.close();
	}

	@Test
	void aClientReconnectingWithLastEventIdGetsExactlyWhatItMissed() throws Exception {
		long ana = newUser();
		List<Long> others = newUsers(3);
		SseStream first = open(this.api, "", "Authorization", "Bearer " + TestTokens.forUser(ana));
		long firstMatch = match(ana, others.get(0));
		SseEvent seen = first.nextEvent();
		assertEvent(seen, "match_created", firstMatch, others.get(0), null);
		first.close();

		// while away: two matches made, one removed
		long secondMatch = match(ana, others.get(1));
		long thirdMatch = match(others.get(2), ana);
		assertThat(this.api.delete("/api/matches/" + firstMatch, others.get(0)).statusCode()).isEqualTo(204);

		// a browser's own reconnect sends the header
		SseStream back = open(this.b, "", "Authorization", "Bearer " + TestTokens.forUser(ana), "Last-Event-ID",
				seen.id());
		SseEvent second = back.nextEvent();
		SseEvent third = back.nextEvent();
		SseEvent removed = back.nextEvent();
		assertEvent(second, "match_created", secondMatch, others.get(1), null);
		assertEvent(third, "match_created", thirdMatch, others.get(2), null);
		assertEvent(removed, "match_removed", firstMatch, others.get(0), null);
		back.assertNoEventWithin(Duration.ofSeconds(1));
		back.close();

		// a page with a new ticket says where it stands beside it
		SseStream fromSecond = open(this.api, "?ticket=" + ticket(this.b, ana) + "&last_event_id=" + second.id());
		assertThat(fromSecond.nextEvent().id()).isEqualTo(third.id());
		assertThat(fromSecond.nextEvent().id()).isEqualTo(removed.id());
		SseStream upToDate = open(this.b, "?ticket=" + ticket(this.b, ana) + "&last_event_id=" + removed.id());
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
	void aTicketOpensOneStreamOnceWithinAMinuteAndNothingElse() throws Exception {
		long ana = newUser();
		String used = ticket(this.api, ana);
		open(this.b, "?ticket=" + used).close();
		assertUnauthenticated(this.api.send(this.api.request("/api/events?ticket=" + used, null).GET().build()));
		assertUnauthenticated(this.b.send(this.b.request("/api/events?ticket=" + used, null).GET().build()));

		String late = ticket(this.b, ana);
		this.clock.advance(Duration.ofSeconds(60));
		assertUnauthenticated(this.api.send(this.api.request("/api/events?ticket=" + late, null).GET().build()));
		assertUnauthenticated(
				this.api.send(this.api.request("/api/events?ticket=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", null)
					.GET()
					.build()));

		// a ticket opens the stream and nothing else, and does not make another ticket
		String fresh = ticket(this.api, ana);
		assertUnauthenticated(this.api.send(this.api.request("/api/matches?ticket=" + fresh, null).GET().build()));
		assertUnauthenticated(this.api.send(this.api.request("/api/events/tickets?ticket=" + fresh, null)
			.POST(HttpRequest.BodyPublishers.noBody())
			.build()));
		open(this.api, "?ticket=" + fresh).close();

		// an id no stream sent is refused, not taken for "from the start"
		HttpResponse<String> badId = this.api.send(this.api.request("/api/events", TestTokens.forUser(ana))
			.header("Last-Event-ID", "yesterday")
			.GET()
			.build());
		assertThat(badId.statusCode()).as(badId.body()).isEqualTo(400);
		assertThat(this.json.readTree(badId.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/invalid-request");
	}

	@Test
	void aMatchWhoseTransactionRollsBackIsNeverPushed() throws Exception {
		long ana = newUser();
		long ben = newUser();
		long cleo = newUser();
		SseStream anas = open(this.b, "", "Authorization", "Bearer " + TestTokens.forUser(ana));
		this.transactions.executeWithoutResult((status) -> {
			this.matches.createIfAbsent(ana, ben, this.clock.instant());
			status.setRollbackOnly();
		});
		long committed = this.transactions
			.execute((status) -> this.matches.createIfAbsent(ana, cleo, this.clock.instant()).matchId());
		assertEvent(anas.nextEvent(), "match_created", committed, cleo, null);
		anas.assertNoEventWithin(Duration.ofSeconds(1));
		anas.close();
	}

	@Test
	void twoPeopleLikingEachOtherAtOnceGetOnePushEach() throws Exception {
		int pairs = 20;
		List<Long> users = newUsers(2 * pairs);
		Map<Long, SseStream> streams = new HashMap<>();
		for (int i = 0; i < users.size(); i++) {
			long user = users.get(i);
			streams.put(user,
					open((i % 2 == 0) ? this.api : this.b, "", "Authorization", "Bearer " + TestTokens.forUser(user)));
		}
		CountDownLatch go = new CountDownLatch(1);
		List<Future<HttpResponse<String>>> likes = new ArrayList<>();
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
			for (Future<HttpResponse<String>> like : likes) {
				assertThat(like.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
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
		for (SseStream stream : streams.values()) {
			stream.assertNoEventWithin(Duration.ofMillis(50));
			stream.close();
		}
	}

	@Test
	void aMatchMadeWhileTheSubscriptionIsDownReachesTheStreamOnceItIsBack() throws Exception {
		RedisMessageListenerContainer subscription = instanceB.getBean(RedisMessageListenerContainer.class);
		long ana = newUser();
		SseStream anas = open(this.b, "", "Authorization", "Bearer " + TestTokens.forUser(ana));
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
		HttpResponse<String> allowed = this.b.send(preflight(this.b, "/api/swipes", APP));
		assertThat(allowed.statusCode()).isEqualTo(200);
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Methods").orElse("")).contains("POST");
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Headers").orElse(""))
			.containsIgnoringCase("authorization")
			.containsIgnoringCase("idempotency-key");
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Credentials")).isEmpty();

		HttpResponse<String> other = this.b.send(preflight(this.b, "/api/swipes", "https://evil.example"));
		assertThat(other.statusCode()).isEqualTo(403);
		assertThat(other.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
		assertThat(this.json.readTree(other.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/origin-not-allowed");
		assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

		// without a setting, no origin but the service's own
		HttpResponse<String> byDefault = this.api.send(preflight(this.api, "/api/swipes", APP));
		assertThat(byDefault.statusCode()).isEqualTo(403);
		assertThat(byDefault.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

		// the event stream and a refusal carry them too, so a page can read both
		long ana = newUser();
		SseStream stream = open(this.b, "?ticket=" + ticket(this.api, ana), "Origin", APP);
		assertThat(stream.header("Access-Control-Allow-Origin")).isEqualTo(APP);
		stream.close();
		HttpResponse<String> refused = this.b.send(this.b.request("/api/matches", null).header("Origin", APP).build());
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
	}

	/** Both like each other (the second one's like makes the match); the match id. */
	private long match(long first, long second) {
		assertThat(this.api.swipe(first, key(), second, "LIKE").statusCode()).isEqualTo(200);
		JsonNode match = this.json.readTree(this.b.swipe(second, key(), first, "LIKE").body());
		assertThat(match.get("matched").asBoolean()).isTrue();
		return match.get("match_id").asLong();
	}

	private void assertEvent(SseEvent event, String type, long matchId, Long otherUser, Instant matchedAt) {
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

	private static long eventIdOf(SseEvent event) {
		String[] parts = event.id().split("-");
		return Long.parseLong(parts[0]) * 1_000_000 + Long.parseLong(parts[1]);
	}

	private String ticket(TestApi api, long userId) {
		HttpResponse<String> issued = api.send(api.request("/api/events/tickets", TestTokens.forUser(userId))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build());
		assertThat(issued.statusCode()).as(issued.body()).isEqualTo(201);
		JsonNode body = this.json.readTree(issued.body());
		assertThat(Instant.parse(body.get("expires_at").asString())).isBetween(this.clock.instant(),
				this.clock.instant().plusSeconds(60));
		return body.get("ticket").asString();
	}

	private void assertUnauthenticated(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(401);
		assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
		assertThat(this.json.readTree(response.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/unauthenticated");
		assertThat(response.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
	}

	private static HttpRequest preflight(TestApi api, String path, String origin) {
		return api.request(path, null)
			.method("OPTIONS", HttpRequest.BodyPublishers.noBody())
			.header("Origin", origin)
			.header("Access-Control-Request-Method", "POST")
			.header("Access-Control-Request-Headers", "authorization,content-type,idempotency-key")
			.build();
	}

	private static SseStream open(TestApi api, String query, String... headers) throws InterruptedException {
		return SseStream.subscribe(URI.create(api.base() + "/api/events" + query), headers);
	}

}
