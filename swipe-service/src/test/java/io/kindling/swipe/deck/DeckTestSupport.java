package io.kindling.swipe.deck;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.security.SecurityProperties;
import io.kindling.swipe.swipe.Action;
import io.kindling.swipe.swipe.SwipeRecorded;
import io.kindling.swipe.swipe.SwipeRewound;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The deck tests' shared context and helpers (the boost tests of another package share
 * them too): profiles written to MySQL, swipes written to {@code swipe_history} and
 * announced as the swipe path announces them, calls made over HTTP with a real JWT. Each
 * test works in its own place on the map with its own user ids, so tests do not see each
 * other's people. Desirability scores move only when a test flushes them: a scheduled
 * flush between a test's two swipes put their games in two batches, which rate
 * differently from one.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		classes = { io.kindling.swipe.SwipeApplication.class, DeckTestSupport.Clocks.class },
		properties = "kindling.swipe.deck.score-flush-interval=1h")
public abstract class DeckTestSupport {

	protected static final Instant START = Instant.parse("2026-06-01T12:00:00Z");

	private static final Duration REFILL_TIMEOUT = Duration.ofSeconds(30);

	@LocalServerPort
	protected int port;

	@Autowired
	protected JdbcClient jdbc;

	@Autowired
	protected StringRedisTemplate redis;

	@Autowired
	protected ApplicationEventPublisher events;

	@Autowired
	protected JsonMapper json;

	@Autowired
	protected SecurityProperties security;

	@Autowired
	protected MutableClock clock;

	@TestConfiguration(proxyBeanMethods = false)
	static class Clocks {

		@Bean
		@Primary
		MutableClock testClock() {
			return new MutableClock(START);
		}

	}

	protected LocalDate today() {
		return LocalDate.ofInstant(this.clock.instant(), ZoneOffset.UTC);
	}

	/**
	 * The centre of a geohash cell of the boost precision, far from other tests' cells.
	 */
	protected static double[] place(double lat, double lon) {
		double[] b = Geohash.bounds(Geohash.encode(lat, lon, 4));
		return new double[] { (b[0] + b[1]) / 2, (b[2] + b[3]) / 2 };
	}

	public record Person(long id, String gender, String interestedIn, int age, double lat, double lon, int ageMin,
			int ageMax, int maxDistanceKm, double desirability) {

		public static Person woman(long id, double lat, double lon) {
			return new Person(id, "WOMAN", "MAN", 30, lat, lon, 25, 35, 50, 1000);
		}

		public static Person man(long id, double lat, double lon) {
			return new Person(id, "MAN", "WOMAN", 30, lat, lon, 25, 35, 50, 1000);
		}

		public Person age(int years) {
			return new Person(this.id, this.gender, this.interestedIn, years, this.lat, this.lon, this.ageMin,
					this.ageMax, this.maxDistanceKm, this.desirability);
		}

		public Person interestedIn(String genders) {
			return new Person(this.id, this.gender, genders, this.age, this.lat, this.lon, this.ageMin, this.ageMax,
					this.maxDistanceKm, this.desirability);
		}

		public Person ages(int min, int max) {
			return new Person(this.id, this.gender, this.interestedIn, this.age, this.lat, this.lon, min, max,
					this.maxDistanceKm, this.desirability);
		}

		public Person maxDistance(int km) {
			return new Person(this.id, this.gender, this.interestedIn, this.age, this.lat, this.lon, this.ageMin,
					this.ageMax, km, this.desirability);
		}

		public Person desirability(double score) {
			return new Person(this.id, this.gender, this.interestedIn, this.age, this.lat, this.lon, this.ageMin,
					this.ageMax, this.maxDistanceKm, score);
		}

		public Person at(double lat, double lon) {
			return new Person(this.id, this.gender, this.interestedIn, this.age, lat, lon, this.ageMin, this.ageMax,
					this.maxDistanceKm, this.desirability);
		}

	}

	protected void save(Person person) {
		Timestamp now = Timestamp.from(this.clock.instant());
		this.jdbc.sql("""
				INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
				    age_min, age_max, max_distance_km, desirability, created_at, updated_at, last_active_at)
				VALUES (:id, :name, :gender, :interestedIn, :birthDate, :lat, :lon, :geohash,
				    :ageMin, :ageMax, :maxDistanceKm, :desirability, :now, :now, :now)
				""")
			.param("id", person.id())
			.param("name", "Person " + person.id())
			.param("gender", person.gender())
			.param("interestedIn", person.interestedIn())
			// born half a year before the birthday, so the age is unambiguous
			.param("birthDate", today().minusYears(person.age()).minusMonths(6))
			.param("lat", person.lat())
			.param("lon", person.lon())
			.param("geohash", Geohash.encode(person.lat(), person.lon(), 9))
			.param("ageMin", person.ageMin())
			.param("ageMax", person.ageMax())
			.param("maxDistanceKm", person.maxDistanceKm())
			.param("desirability", person.desirability())
			.param("now", now)
			.update();
	}

	/** A swipe as the swipe path makes it: durable in MySQL first, then announced. */
	protected void swipe(long userId, long targetId, String action) {
		Instant now = this.clock.instant();
		this.jdbc.sql("""
				INSERT INTO swipe_history (request_id, request_hash, user_id, target_user_id, action, response_status,
				    created_at)
				VALUES (:requestId, :requestHash, :userId, :targetId, :action, 0, :now)
				""")
			.param("requestId", UUID.randomUUID().toString())
			.param("requestHash", "0".repeat(64))
			.param("userId", userId)
			.param("targetId", targetId)
			.param("action", action)
			.param("now", Timestamp.from(now))
			.update();
		this.events.publishEvent(new SwipeRecorded(userId, targetId, Action.valueOf(action), now));
	}

	protected void rewind(long userId, long targetId, String action) {
		Instant now = this.clock.instant();
		this.jdbc.sql("""
				UPDATE swipe_history SET undone_at = :now
				WHERE user_id = :userId AND target_user_id = :targetId AND undone_at IS NULL
				""").param("now", Timestamp.from(now)).param("userId", userId).param("targetId", targetId).update();
		this.events.publishEvent(new SwipeRewound(userId, targetId, Action.valueOf(action), now));
	}

	protected ServiceClient client() {
		return new ServiceClient(this.port);
	}

	protected String token(long userId) {
		try {
			SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256),
					new JWTClaimsSet.Builder().subject(String.valueOf(userId))
						.expirationTime(Date.from(Instant.now().plus(Duration.ofHours(1))))
						.build());
			jwt.sign(new MACSigner(this.security.jwtSecret().getBytes(StandardCharsets.UTF_8)));
			return jwt.serialize();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	protected Response get(long userId, String path) {
		return client().get(path, token(userId));
	}

	protected Response post(long userId, String path) {
		return client().send("POST", path, token(userId), null);
	}

	protected Response postJson(long userId, String path, String body) {
		return client().send("POST", path, token(userId), body, "Idempotency-Key", UUID.randomUUID().toString());
	}

	/** A swipe through {@code POST /api/swipes}, the whole swipe path. */
	protected Response swipeOverApi(long userId, long targetId, String action) {
		return postJson(userId, "/api/swipes",
				"{\"target_user_id\": " + targetId + ", \"action\": \"" + action + "\"}");
	}

	/**
	 * {@code FLUSHALL}, and the proof that it happened: Redis holds no key afterwards, so
	 * whatever comes next is read from MySQL. A background writer of the service (a deck
	 * refill an earlier page began) may land a key just after the flush: then it flushes
	 * again, a few times at most.
	 */
	protected void flushRedis() {
		Set<String> left = Set.of();
		for (int attempt = 0; attempt < 5; attempt++) {
			this.redis.execute((RedisCallback<Object>) (connection) -> {
				connection.serverCommands().flushAll();
				return null;
			});
			left = this.redis.keys("*");
			if (left.isEmpty()) {
				return;
			}
		}
		throw new AssertionError("FLUSHALL left " + left);
	}

	/** {@link StoredDecks#forget}: the next page assembles a new deck. */
	protected void forgetDeck(long userId) {
		StoredDecks.forget(this.redis, userId, REFILL_TIMEOUT);
	}

	/** {@link StoredDecks#awaitNoRefill}. */
	protected void awaitNoRefill(long userId) {
		StoredDecks.awaitNoRefill(this.redis, userId, REFILL_TIMEOUT);
	}

	/** The user ids of the cards still in the user's stored deck, next first. */
	protected List<Long> remainingIds(long userId) {
		return remaining(userId).stream()
			.filter((entry) -> entry.has("user_id"))
			.map((card) -> card.get("user_id").asLong())
			.toList();
	}

	/**
	 * The boost slots still in the user's stored deck, next first: each slot's candidates
	 * (one of whom is chosen when the slot is served).
	 */
	protected List<List<Long>> remainingBoostSlots(long userId) {
		List<List<Long>> slots = new ArrayList<>();
		for (JsonNode entry : remaining(userId)) {
			if (entry.has("boost_slot")) {
				List<Long> candidates = new ArrayList<>();
				entry.get("boost_slot").forEach((card) -> candidates.add(card.get("user_id").asLong()));
				slots.add(candidates);
			}
		}
		return slots;
	}

	private List<JsonNode> remaining(long userId) {
		List<String> cards = this.redis.opsForList().range("deck:{" + userId + "}", 0, -1);
		return (cards != null) ? cards.stream().map(this.json::readTree).toList() : List.of();
	}

	/** One page of the user's deck. */
	protected List<JsonNode> page(long userId, int limit) {
		Response response = get(userId, "/api/deck?limit=" + limit);
		if (response.status() / 100 != 2) {
			throw new AssertionError("GET /api/deck answered " + response.status() + ": " + response.body());
		}
		List<JsonNode> cards = new ArrayList<>();
		this.json.readTree(response.body()).get("cards").forEach(cards::add);
		return cards;
	}

	protected static List<Long> ids(List<JsonNode> cards) {
		return cards.stream().map((card) -> card.get("user_id").asLong()).toList();
	}

}
