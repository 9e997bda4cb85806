package io.kindling.matching;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.SseEvent;
import io.kindling.infra.test.SseStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rooms' event stream as a browser uses it, on two instances: opened with a
 * single-use ticket from either instance, every event with an id, a reconnect with
 * {@code Last-Event-ID} sent only what it missed, and CORS for the pages of an allowed
 * origin.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
class BrowserStreamsIT {

	static final String APP = "https://app.example.com";

	static final HttpClient http = HttpClient.newHttpClient();

	static TwoInstances instances;

	@BeforeAll
	static void start() {
		instances = new TwoInstances(new MutableClock(Instant.now().truncatedTo(ChronoUnit.MILLIS)),
				"--kindling.web.allowed-origins=" + APP);
	}

	@AfterAll
	static void stop() throws Exception {
		if (instances != null) {
			instances.close();
		}
	}

	@BeforeEach
	void freshStores() {
		instances.freshStores();
	}

	@Test
	void aTicketFromOneInstanceOpensTheStreamOnTheOtherAndTheRoomArrivesWithItsIdAsTheEventId() throws Exception {
		String x = instances.a.session();
		String y = instances.b.session();
		Api.Response issued = instances.a.send("POST", "/api/matching/events/tickets", x, null);
		assertThat(issued.status()).as(issued.body()).isEqualTo(201);
		String ticket = issued.field("ticket");
		assertThat(ticket).hasSize(43).isNotEqualTo(x);
		assertThat(Instant.parse(issued.field("expires_at")))
			.isEqualTo(instances.clock.instant().plus(Duration.ofSeconds(60)));

		SseStream stream = open(instances.b, "?ticket=" + ticket);
		assertThat(instances.a.join(x, 42, 2).status()).isEqualTo(202);
		Api.Response formed = instances.a.join(y, 42, 2);
		assertThat(formed.status()).isEqualTo(200);

		SseEvent matched = stream.nextEvent();
		assertThat(matched.name()).isEqualTo("matched");
		assertThat(matched.id()).isEqualTo(formed.field("room_id"));
		assertThat(Api.JSON.readTree(matched.data())).isEqualTo(formed.json());
		stream.close();
	}

	@Test
	void aTicketOpensOneStreamOnceWithinAMinuteAndNothingElse() throws Exception {
		String x = instances.a.session();
		String used = ticket(instances.a, x);
		open(instances.a, "?ticket=" + used).close();
		assertUnauthenticated(instances.b.send("GET", "/api/matching/events?ticket=" + used, null, null));
		assertUnauthenticated(instances.a.send("GET", "/api/matching/events?ticket=" + used, null, null));

		String late = ticket(instances.b, x);
		instances.clock.advance(Duration.ofSeconds(60));
		assertUnauthenticated(instances.a.send("GET", "/api/matching/events?ticket=" + late, null, null));

		assertUnauthenticated(instances.a.send("GET",
				"/api/matching/events?ticket=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", null, null));
		assertUnauthenticated(instances.a.send("GET", "/api/matching/events?ticket=x%0Ay", null, null));
		// the ticket alone decides: a valid session beside a spent ticket opens nothing
		assertUnauthenticated(instances.a.send("GET", "/api/matching/events?ticket=" + used, x, null));
		// a ticket is no session: it opens the stream and nothing else
		String fresh = ticket(instances.a, x);
		assertUnauthenticated(instances.a.send("GET", "/api/matching?ticket=" + fresh, null, null));
		assertUnauthenticated(instances.a.send("GET", "/api/matching", fresh, null));
		assertUnauthenticated(instances.a.send("POST", "/api/matching/events/tickets", null, null));
		// the Authorization header keeps working
		open(instances.b, "", "Authorization", "Bearer " + x).close();
	}

	@Test
	void aClientReconnectingWithLastEventIdGetsTheRoomItMissedAndNothingTwice() throws Exception {
		String x = instances.a.session();
		SseStream first = open(instances.a, "?ticket=" + ticket(instances.a, x));
		assertThat(instances.a.join(x, 3, 2).status()).isEqualTo(202);
		Api.Response room = instances.b.join(instances.b.session(), 3, 2);
		assertThat(room.status()).isEqualTo(200);
		String roomId = first.nextEvent().id();
		assertThat(roomId).isEqualTo(room.field("room_id"));
		first.close();

		// a browser's own reconnect sends the header; a page with a new ticket the
		// parameter: either way the room it was told of is not sent again
		SseStream byHeader = open(instances.b, "", "Authorization", "Bearer " + x, "Last-Event-ID", roomId);
		SseStream byParameter = open(instances.a, "?ticket=" + ticket(instances.b, x) + "&last_event_id=" + roomId);
		byHeader.assertNoEventWithin(Duration.ofSeconds(1));
		byParameter.assertNoEventWithin(Duration.ZERO);
		byHeader.close();
		byParameter.close();

		// a room formed while the client was away is sent once it reconnects, once
		assertThat(instances.a.leave(x).status()).isEqualTo(204);
		assertThat(instances.a.join(x, 3, 2).status()).isEqualTo(202);
		Api.Response missed = instances.a.join(instances.a.session(), 3, 2);
		assertThat(missed.status()).isEqualTo(200);
		SseStream back = open(instances.b, "?ticket=" + ticket(instances.a, x) + "&last_event_id=" + roomId);
		SseEvent event = back.nextEvent();
		assertThat(event.id()).isEqualTo(missed.field("room_id")).isNotEqualTo(roomId);
		assertThat(Api.JSON.readTree(event.data())).isEqualTo(missed.json());
		back.assertNoEventWithin(Duration.ofSeconds(1));
		back.close();
	}

	@Test
	void aPreflightFromTheAllowedOriginGetsTheCorsHeadersAndOneFromAnotherOriginDoesNot() throws Exception {
		HttpResponse<String> allowed = preflight(instances.a, "/api/matching/events/tickets", APP);
		assertThat(allowed.statusCode()).isEqualTo(200);
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Methods").orElse("")).contains("POST");
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Headers").orElse(""))
			.containsIgnoringCase("authorization");
		assertThat(allowed.headers().firstValue("Access-Control-Allow-Credentials")).isEmpty();

		HttpResponse<String> other = preflight(instances.b, "/api/matching/events/tickets", "https://evil.example");
		assertThat(other.statusCode()).isEqualTo(403);
		assertThat(other.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(other.body()).contains("https://kindling.io/problems/origin-not-allowed");
		assertThat(other.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();

		// the event stream a page of that origin opens, and a call's answer, carry them
		// too
		String x = instances.a.session();
		SseStream stream = open(instances.b, "?ticket=" + ticket(instances.a, x), "Origin", APP);
		assertThat(stream.header("Access-Control-Allow-Origin")).isEqualTo(APP);
		stream.close();
		HttpResponse<String> ticket = http
			.send(HttpRequest.newBuilder(URI.create(instances.a.base() + "/api/matching/events/tickets"))
				.header("Origin", APP)
				.header("Authorization", "Bearer " + x)
				.POST(HttpRequest.BodyPublishers.noBody())
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(ticket.statusCode()).isEqualTo(201);
		assertThat(ticket.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
	}

	static String ticket(Api api, String session) {
		Api.Response issued = api.send("POST", "/api/matching/events/tickets", session, null);
		assertThat(issued.status()).as(issued.body()).isEqualTo(201);
		return issued.field("ticket");
	}

	static void assertUnauthenticated(Api.Response response) {
		assertThat(response.status()).as(response.body()).isEqualTo(401);
		assertThat(response.header("Content-Type")).startsWith("application/problem+json");
		assertThat(response.field("type")).isEqualTo("https://kindling.io/problems/unauthenticated");
		assertThat(response.header("WWW-Authenticate")).startsWith("Bearer");
	}

	static HttpResponse<String> preflight(Api api, String path, String origin) throws Exception {
		return http.send(HttpRequest.newBuilder(URI.create(api.base() + path))
			.method("OPTIONS", HttpRequest.BodyPublishers.noBody())
			.header("Origin", origin)
			.header("Access-Control-Request-Method", "POST")
			.header("Access-Control-Request-Headers", "authorization")
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	static SseStream open(Api api, String query, String... headers) throws InterruptedException {
		return SseStream.subscribe(URI.create(api.base() + "/api/matching/events" + query), headers);
	}

}
