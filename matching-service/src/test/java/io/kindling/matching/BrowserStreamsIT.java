package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.test.CorsChecks;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The rooms' event stream as a browser uses it, on two instances: opened with a
 * single-use ticket from either instance, every event with an id, a reconnect with
 * {@code Last-Event-ID} sent only what it missed, at most four streams and twenty tickets
 * a minute per session across instances, and CORS for the pages of an allowed origin.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class BrowserStreamsIT {

	static final String APP = "https://app.example.com";

	@RegisterExtension
	static final TwoInstances.PerClass twoInstances = new TwoInstances.PerClass("--kindling.web.allowed-origins=" + APP,
			// the streams ping their clients (and renew their leases) every second
			"--kindling.web.stream-lease=3s");

	TwoInstances instances;

	@BeforeEach
	void instances() {
		this.instances = twoInstances.get();
	}

	@Test
	void aTicketFromOneInstanceOpensTheStreamOnTheOtherAndTheRoomArrivesWithItsIdAsTheEventId() throws Exception {
		String x = this.instances.a.session();
		String y = this.instances.b.session();
		Response issued = this.instances.a.send("POST", "/api/matching/events/tickets", x, null);
		assertThat(issued.status()).as(issued.body()).isEqualTo(201);
		String ticket = issued.field("ticket");
		assertThat(ticket).hasSize(43).isNotEqualTo(x);
		assertThat(Instant.parse(issued.field("expires_at")))
			.isEqualTo(this.instances.clock.instant().plus(Duration.ofSeconds(60)));

		EventStream stream = open(this.instances.b, events("?ticket=" + ticket));
		assertThat(this.instances.a.join(x, 42, 2).status()).isEqualTo(202);
		Response formed = this.instances.a.join(y, 42, 2);
		assertThat(formed.status()).isEqualTo(200);

		ServerSentEvent matched = stream.nextEvent();
		assertThat(matched.name()).isEqualTo("matched");
		assertThat(matched.id()).isEqualTo(formed.field("room_id"));
		assertThat(Api.JSON.readTree(matched.data())).isEqualTo(formed.json());
		stream.close();
	}

	@Test
	void aTicketOpensOneStreamOnceWithinAMinuteAndNothingElse() throws Exception {
		String x = this.instances.a.session();
		String used = ticket(this.instances.a, x);
		open(this.instances.a, events("?ticket=" + used)).close();
		assertUnauthenticated(this.instances.b.send("GET", "/api/matching/events?ticket=" + used, null, null));
		assertUnauthenticated(this.instances.a.send("GET", "/api/matching/events?ticket=" + used, null, null));

		String late = ticket(this.instances.b, x);
		this.instances.clock.advance(Duration.ofSeconds(60));
		assertUnauthenticated(this.instances.a.send("GET", "/api/matching/events?ticket=" + late, null, null));

		assertUnauthenticated(this.instances.a.send("GET",
				"/api/matching/events?ticket=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", null, null));
		assertUnauthenticated(this.instances.a.send("GET", "/api/matching/events?ticket=x%0Ay", null, null));
		// the ticket alone decides: a valid session beside a spent ticket opens nothing
		assertUnauthenticated(this.instances.a.send("GET", "/api/matching/events?ticket=" + used, x, null));
		// a ticket is no session: it opens the stream and nothing else
		String fresh = ticket(this.instances.a, x);
		assertUnauthenticated(this.instances.a.send("GET", "/api/matching?ticket=" + fresh, null, null));
		assertUnauthenticated(this.instances.a.send("GET", "/api/matching", fresh, null));
		assertUnauthenticated(this.instances.a.send("POST", "/api/matching/events/tickets", null, null));
		// the Authorization header keeps working
		open(this.instances.b, events("").bearer(x)).close();
	}

	@Test
	void aClientReconnectingWithLastEventIdGetsTheRoomItMissedAndNothingTwice() throws Exception {
		String x = this.instances.a.session();
		EventStream first = open(this.instances.a, events("?ticket=" + ticket(this.instances.a, x)));
		assertThat(this.instances.a.join(x, 3, 2).status()).isEqualTo(202);
		Response room = this.instances.b.join(this.instances.b.session(), 3, 2);
		assertThat(room.status()).isEqualTo(200);
		String roomId = first.nextEvent().id();
		assertThat(roomId).isEqualTo(room.field("room_id"));
		first.close();

		// a browser's own reconnect sends the header; a page with a new ticket the
		// parameter: either way the room it was told of is not sent again
		EventStream byHeader = open(this.instances.b, events("").bearer(x).header("Last-Event-ID", roomId));
		EventStream byParameter = open(this.instances.a,
				events("?ticket=" + ticket(this.instances.b, x) + "&last_event_id=" + roomId));
		byHeader.assertNoEventWithin(Duration.ofSeconds(1));
		byParameter.assertNoEventWithin(Duration.ZERO);
		byHeader.close();
		byParameter.close();

		// a room formed while the client was away is sent once it reconnects, once
		assertThat(this.instances.a.leave(x).status()).isEqualTo(204);
		assertThat(this.instances.a.join(x, 3, 2).status()).isEqualTo(202);
		Response missed = this.instances.a.join(this.instances.a.session(), 3, 2);
		assertThat(missed.status()).isEqualTo(200);
		EventStream back = open(this.instances.b,
				events("?ticket=" + ticket(this.instances.a, x) + "&last_event_id=" + roomId));
		ServerSentEvent event = back.nextEvent();
		assertThat(event.id()).isEqualTo(missed.field("room_id")).isNotEqualTo(roomId);
		assertThat(Api.JSON.readTree(event.data())).isEqualTo(missed.json());
		back.assertNoEventWithin(Duration.ofSeconds(1));
		back.close();
	}

	@Test
	void aSessionHoldsAtMostFourStreamsAcrossInstancesAndOneItsClientClosedFreesItsPlace() throws Exception {
		String x = this.instances.a.session();
		List<EventStream> streams = new ArrayList<>(
				List.of(open(this.instances.a, events("").bearer(x)), open(this.instances.b, events("").bearer(x)),
						open(this.instances.a, events("?ticket=" + ticket(this.instances.b, x))),
						open(this.instances.b, events("").bearer(x))));

		for (Api instance : List.of(this.instances.a, this.instances.b)) {
			Response fifth = instance.http().send(events("").bearer(x).header("Accept", "text/event-stream"));
			assertThat(fifth.status()).as(fifth.body()).isEqualTo(429);
			assertThat(fifth.field("type")).isEqualTo("https://kindling.io/problems/too-many-streams");
			assertThat(fifth.header("Retry-After"))
				.hasValueSatisfying((seconds) -> assertThat(Integer.parseInt(seconds)).isBetween(1, 3));
		}
		open(this.instances.b, events("").bearer(this.instances.b.session())).close();

		// the server learns the client went away when it next writes to it: its ping
		streams.remove(1).close();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> {
				EventStream fifth = this.instances.a.http().events(events("").bearer(x));
				if (fifth.status() != 200) {
					fifth.close();
					return false;
				}
				streams.add(fifth);
				return true;
			});
		}
		catch (ConditionTimeoutException ex) {
			throw new AssertionError("the closed stream's place was not freed; the clock stands at "
					+ this.instances.clock.millis() + " ms and the leases are (id=ends at) " + leases(), ex);
		}
		streams.forEach(EventStream::close);
	}

	@Test
	void aSessionIsIssuedAtMostTwentyTicketsAMinuteAcrossInstances() {
		String x = this.instances.a.session();
		for (int i = 0; i < 20; i++) {
			ticket((i % 2 == 0) ? this.instances.a : this.instances.b, x);
		}

		Response more = this.instances.b.send("POST", "/api/matching/events/tickets", x, null);
		assertThat(more.status()).as(more.body()).isEqualTo(429);
		assertThat(more.field("type")).isEqualTo("https://kindling.io/problems/rate-limited");
		assertThat(more.header("Retry-After")).isPresent();
		ticket(this.instances.a, this.instances.a.session());
		this.instances.clock.advance(Duration.ofMinutes(1));
		ticket(this.instances.b, x);
	}

	@Test
	void aPreflightFromTheAllowedOriginGetsTheCorsHeadersAndOneFromAnotherOriginDoesNot() throws Exception {
		String path = "/api/matching/events/tickets";
		CorsChecks.assertPreflightAllowed(
				this.instances.a.http().send(CorsChecks.preflight(path, APP, "POST", "authorization")), APP, "POST",
				"authorization");
		CorsChecks.assertRefused(this.instances.b.http()
			.send(CorsChecks.preflight(path, "https://evil.example", "POST", "authorization")));

		// the event stream a page of that origin opens, and a call's answer, carry them
		// too
		String x = this.instances.a.session();
		EventStream stream = open(this.instances.b,
				events("?ticket=" + ticket(this.instances.a, x)).header("Origin", APP));
		assertThat(stream.header("Access-Control-Allow-Origin")).isEqualTo(APP);
		stream.close();
		Response ticket = this.instances.a.http().send(Request.of("POST", path).bearer(x).header("Origin", APP));
		assertThat(ticket.status()).isEqualTo(201);
		CorsChecks.assertAllowed(ticket, APP);
	}

	/** Every principal's stream leases in Redis, each id with when it ends. */
	private Map<String, List<String>> leases() {
		Map<String, List<String>> leases = new TreeMap<>();
		for (String key : this.instances.redis.keys("matching-service:streams:*")) {
			leases.put(key,
					this.instances.redis.opsForZSet()
						.rangeWithScores(key, 0, -1)
						.stream()
						.map((lease) -> lease.getValue() + "=" + lease.getScore().longValue())
						.toList());
		}
		return leases;
	}

	static String ticket(Api api, String session) {
		Response issued = api.send("POST", "/api/matching/events/tickets", session, null);
		assertThat(issued.status()).as(issued.body()).isEqualTo(201);
		return issued.field("ticket");
	}

	static void assertUnauthenticated(Response response) {
		assertThat(response.status()).as(response.body()).isEqualTo(401);
		assertThat(response.header("Content-Type").orElse("")).startsWith("application/problem+json");
		assertThat(response.field("type")).isEqualTo("https://kindling.io/problems/unauthenticated");
		assertThat(response.header("WWW-Authenticate").orElse("")).startsWith("Bearer");
	}

	static Request events(String query) {
		return Request.get("/api/matching/events" + query);
	}

	static EventStream open(Api api, Request request) throws InterruptedException {
		return api.http().events(request).awaitFirstLine(":subscribed");
	}

}
