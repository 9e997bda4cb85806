package io.kindling.swipe.swipe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import io.kindling.infra.http.EventStream;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServerSentEvent;
import io.kindling.infra.servers.RedisCluster;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.infra.test.RedisMode;
import io.kindling.push.StreamLeases;
import io.kindling.redis.LuaScript;
import io.kindling.redis.bloom.BloomCapability;
import io.kindling.redis.bloom.BloomKeys;
import io.kindling.redis.bloom.BloomSpec;
import io.kindling.redis.bloom.ModuleBloomFilter;
import io.kindling.swipe.TestApi;
import io.kindling.swipe.TestTokens;
import io.kindling.swipe.deck.StoredDecks;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The swipe side on a real Redis Cluster (three primaries, three replicas), chosen by
 * {@code spring.data.redis.cluster.nodes} alone, with a second instance of the service:
 * every script call stays in one hash slot, every feature that uses Redis works, a crowd
 * of racing pairs matches exactly once, and the mutual-like script loads again on a
 * promoted replica.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe", redis = RedisMode.CLUSTER)
// a deck of 10 lets a dozen people fill one deck and start the next
@TestPropertySource(properties = "kindling.swipe.deck.size=10")
class SwipesOnClusterIT extends SwipeTestBase {

	@RegisterExtension
	static final SecondInstance other = new SecondInstance();

	private static final Duration REFILL_TIMEOUT = Duration.ofSeconds(10);

	@Autowired
	JsonMapper json;

	@Autowired
	MeterRegistry meters;

	@Autowired
	JedisConnectionFactory connectionFactory;

	@Autowired
	StreamLeases leases;

	@Test
	void everyScriptCallStaysInOneSlotWhileEveryFeatureWorks() throws InterruptedException {
		RedisCluster cluster = RealServersExtension.redisCluster();
		Set<String> files = ScriptSlots.scriptFiles();
		assertThat(files).as("the scripts on the service's class path")
			.contains("mutual_like", "store_deck", "bloom_bitmap_add", "bloom_claim_slots");
		try (ScriptSlots slots = new ScriptSlots(cluster.primaries())) {
			walkThroughEveryFeature();
			moduleFilterOnTheCluster();
			slots.assertEveryScriptCalledAndEachCallInOneSlot(files);
			assertThat(slots.callsOf("mutual_like")).isNotEmpty();
		}
	}

	/**
	 * Profiles, super likes, a boost, the deck with its Bloom history filter (bitmaps),
	 * its background refill and a rewind, mutual likes and the pushes of their matches
	 * (pub/sub and the event log), a stream ticket, a stream's lease renewed and a match
	 * message, over HTTP on both instances.
	 */
	private void walkThroughEveryFeature() throws InterruptedException {
		double[] at = somewhereAtSea();
		long viewer = newUser();
		List<Long> men = new ArrayList<>();
		for (int i = 0; i < 10; i++) {
			men.add(newUser());
		}
		long booster = newUser();
		long superLiker = newUser();
		profile(viewer, "WOMAN", "MAN", at);
		for (long man : men) {
			profile(man, "MAN", "WOMAN", at);
		}
		profile(booster, "MAN", "WOMAN", at);
		profile(superLiker, "MAN", "WOMAN", at);

		assertThat(swipe(superLiker, viewer, "SUPER_LIKE").get("matched").asBoolean()).isFalse();
		Response boost = other.api.http().send("POST", "/api/boosts", TestTokens.forUser(booster), null);
		assertThat(boost.status()).as(boost.body()).isEqualTo(201);

		// the first deck (10 cards): the super liker on top, then five organic, the
		// boosted man, three organic
		List<JsonNode> first = deck(viewer, 6);
		assertThat(first).hasSize(6);
		assertThat(userId(first.get(0))).isEqualTo(superLiker);
		assertThat(first.get(0).get("super_liked_you").asBoolean()).isTrue();
		List<Long> shown = ids(first.subList(1, 6));
		assertThat(men).containsAll(shown);
		// this page leaves two cards: the next deck is assembled in the background and
		// appended
		List<JsonNode> second = deck(viewer, 2);
		assertThat(second).hasSize(2);
		assertThat(userId(second.get(0))).isEqualTo(booster);
		assertThat(second.get(0).get("boosted").asBoolean()).isTrue();
		awaitNoRefill(viewer);
		assertThat(this.redis.opsForList().size("deck:{" + viewer + "}")).as("cards after the refill").isGreaterThan(2);

		// mutual likes on either instance: one match each, whichever instance decides,
		// pushed to a stream open on the other instance
		EventStream viewers = openStream(other.api, Request.get("/api/events"), viewer);
		viewers.nextEvent("position");
		assertThat(swipe(viewer, shown.get(0), "LIKE").get("matched").asBoolean()).isFalse();
		JsonNode firstMatch = swipeOn(other, shown.get(0), viewer, "LIKE");
		assertThat(firstMatch.get("matched").asBoolean()).isTrue();
		ServerSentEvent pushed = viewers.nextEvent();
		viewers.close();
		assertThat(pushed.name()).isEqualTo("match_created");
		assertThat(this.json.readTree(pushed.data()).get("match_id").asLong())
			.isEqualTo(firstMatch.get("match_id").asLong());
		assertThat(swipeOn(other, shown.get(1), viewer, "LIKE").get("matched").asBoolean()).isFalse();
		assertThat(swipe(viewer, shown.get(1), "SUPER_LIKE").get("matched").asBoolean()).isTrue();
		for (long passed : shown.subList(2, 5)) {
			assertThat(swipe(viewer, passed, "PASS").get("matched").asBoolean()).isFalse();
		}
		Response matches = this.api.get("/api/matches", viewer);
		assertThat(matches.status()).isEqualTo(200);
		// a stream ticket, and a message in the first match (through its sender's rate
		// bucket)
		assertThat(this.api.http().send("POST", "/api/events/tickets", TestTokens.forUser(viewer), null).status())
			.isEqualTo(201);
		Response message = this.api.post("/api/matches/" + firstMatch.get("match_id").asLong() + "/messages", viewer,
				"{\"text\": \"hello\", \"client_message_id\": \"walk-1\"}");
		assertThat(message.status()).as(message.body()).isEqualTo(201);
		assertThat(matches.json().get("matches").size()).isEqualTo(2);
		// a stream reopened on this instance from the first push reads the second match
		// from the user's event log
		EventStream reopened = openStream(this.api, Request.get("/api/events").header("Last-Event-ID", pushed.id()),
				viewer);
		ServerSentEvent missed = reopened.nextEvent();
		// the lease of the stream open here renewed (each instance renews on a timer)
		this.leases.renew();
		reopened.close();
		assertThat(missed.name()).isEqualTo("match_created");
		assertThat(this.json.readTree(missed.data()).get("user_id").asLong()).isEqualTo(shown.get(1));

		// a deck assembled now comes through the history filter: nobody swiped
		StoredDecks.forget(this.redis, viewer, REFILL_TIMEOUT);
		List<Long> unswiped = new ArrayList<>(men);
		unswiped.removeAll(shown);
		assertThat(ids(deck(viewer, 20))).containsExactlyInAnyOrderElementsOf(concat(unswiped, booster, superLiker));

		// a rewind drops the filter (and the deck); the rebuilt one lets the rewound man
		// come back
		assertThat(this.api.delete("/api/swipes/last", viewer).status()).isEqualTo(204);
		assertThat(ids(deck(viewer, 20))).contains(shown.get(4))
			.doesNotContainAnyElementsOf(shown.subList(0, 4))
			.doesNotContain(viewer);
		awaitNoRefill(viewer);
	}

	private static EventStream openStream(TestApi instance, Request request, long userId) throws InterruptedException {
		return instance.http().events(request.bearer(TestTokens.forUser(userId))).awaitFirstLine(":subscribed");
	}

	/** A background refill of the deck is done (it appended, or found nobody new). */
	private void awaitNoRefill(long userId) {
		StoredDecks.awaitNoRefill(this.redis, userId, REFILL_TIMEOUT);
	}

	/**
	 * RedisBloom's filter on the cluster: all of one owner's keys share its slot. Without
	 * the module (Debian's Redis) only its slot claim runs; its {@code BF.*} commands are
	 * refused as unknown.
	 */
	private void moduleFilterOnTheCluster() {
		ModuleBloomFilter filter = new ModuleBloomFilter(this.redis, new BloomKeys("swiped_bf"),
				new BloomSpec(100, 0.01));
		String owner = String.valueOf(newUser());
		filter.drop(owner);
		assertThat(filter.open(owner)).isTrue();
		List<String> items = List.of("1", "2", "3");
		if (BloomCapability.moduleLoaded(this.connectionFactory)) {
			assertThat(filter.add(owner, items)).isTrue();
			assertThat(filter.mightContain(owner, List.of("1", "4"))).containsExactly(true, false);
			filter.drop(owner);
			assertThat(filter.count(owner)).isEqualTo(-1);
		}
		else {
			assertThatThrownBy(() -> filter.add(owner, items)).hasStackTraceContaining("unknown command");
			assertThat(filter.count(owner)).as("the slots were claimed").isEqualTo(items.size());
		}
	}

	@Test
	void fiveHundredRacingPairsSentTwiceToTwoInstancesMatchExactlyOnce() throws Exception {
		double fallbacksBefore = fallbacks();
		RacingPairs race = new RacingPairs(newUsers(2 * (RacingPairs.PAIRS + RacingPairs.ONE_SIDED)));
		race.run((swipe, copy) -> ((copy == 0) ? this.api : other.api).swipe(swipe.userId(), swipe.key(),
				swipe.targetUserId(), "LIKE"), (done, total) -> {
				});
		race.assertFinalState(this.jdbc, this.json);
		assertThat(fallbacks() - fallbacksBefore).as("decisions MySQL made because Redis failed").isZero();
		RedisCluster cluster = RealServersExtension.redisCluster();
		Set<Integer> primaries = race.swipes.stream()
			.map((swipe) -> cluster.primaryFor(MutualLikeScript.pairKey(swipe.userId(), swipe.targetUserId())).port())
			.collect(Collectors.toSet());
		assertThat(primaries).as("primaries holding the pairs").hasSize(3);
	}

	@Test
	void theMutualLikeScriptLoadsAgainOnAPromotedReplicaThatHasNoneCached() throws Exception {
		RedisCluster cluster = RealServersExtension.redisCluster();
		long ana = newUser();
		long ben = newUser();
		String pair = MutualLikeScript.pairKey(ana, ben);
		assertThat(this.api.swipe(ana, key(), ben, "LIKE").json().get("matched").asBoolean()).isFalse();
		RedisServer primary = cluster.primaryFor(pair);
		RedisServer replica = cluster.replicaOf(primary);
		String sha1 = LuaScript.load("mutual_like", Long.class).sha1();
		try (Jedis toPrimary = new Jedis("127.0.0.1", primary.port());
				Jedis toReplica = new Jedis("127.0.0.1", replica.port())) {
			primary.awaitReplicated(Duration.ofSeconds(5));
			assertThat(toPrimary.scriptExists(sha1)).isTrue();
			assertThat(toReplica.scriptExists(sha1)).as("scripts are not replicated").isFalse();
		}
		primary.kill();
		cluster.awaitPromoted(replica, Duration.ofSeconds(30));
		try {
			double fallbacksBefore = fallbacks();
			Response matched = retried(() -> this.api.swipe(ben, key(), ana, "LIKE"));
			assertThat(matched.status()).as(matched.body()).isEqualTo(200);
			assertThat(matched.json().get("matched").asBoolean()).isTrue();
			try (Jedis promoted = new Jedis("127.0.0.1", replica.port())) {
				assertThat(promoted.scriptExists(sha1)).as("loaded on the promoted replica").isTrue();
				assertThat(promoted.hkeys(pair)).contains("right_a", "right_b");
			}
			assertThat(fallbacks() - fallbacksBefore).as("the script decided, not the fallback").isZero();
		}
		finally {
			cluster.heal(Duration.ofSeconds(60));
		}
	}

	private double fallbacks() {
		return this.meters.find("kindling.swipe.redis.fallbacks")
			.counters()
			.stream()
			.mapToDouble((c) -> c.count())
			.sum() + other.counter("kindling.swipe.redis.fallbacks");
	}

	private static Response retried(Supplier<Response> request) throws InterruptedException {
		Response response = request.get();
		for (int attempt = 0; response.status() == 503 && attempt < 100; attempt++) {
			Thread.sleep(100);
			response = request.get();
		}
		return response;
	}

	/** A place of its own for this run, far from land and from other tests' people. */
	private static double[] somewhereAtSea() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return new double[] { -35 + random.nextDouble(-3, 3), -20 + random.nextDouble(-3, 3) };
	}

	private void profile(long userId, String gender, String interestedIn, double[] at) {
		Response put = this.api.put("/api/profile", userId, String.format(Locale.ROOT, """
				{"display_name":"user %d","gender":"%s","interested_in":["%s"],"birth_date":"1994-03-02",
				 "location":{"lat":%.6f,"lon":%.6f},"age_min":25,"age_max":45,"max_distance_km":5}
				""", userId, gender, interestedIn, at[0], at[1]));
		assertThat(put.status()).as(put.body()).isEqualTo(200);
	}

	private JsonNode swipe(long userId, long targetUserId, String action) {
		Response response = this.api.swipe(userId, key(), targetUserId, action);
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		return response.json();
	}

	private static JsonNode swipeOn(SecondInstance instance, long userId, long targetUserId, String action) {
		Response response = instance.api.swipe(userId, key(), targetUserId, action);
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		return response.json();
	}

	private List<JsonNode> deck(long userId, int limit) {
		Response response = this.api.get("/api/deck?limit=" + limit, userId);
		assertThat(response.status()).as(response.body()).isEqualTo(200);
		List<JsonNode> cards = new ArrayList<>();
		response.json().get("cards").forEach(cards::add);
		return cards;
	}

	private long userId(JsonNode card) {
		return card.get("user_id").asLong();
	}

	private List<Long> ids(List<JsonNode> cards) {
		return cards.stream().map(this::userId).toList();
	}

	private static List<Long> concat(List<Long> some, Long... more) {
		List<Long> all = new ArrayList<>(some);
		all.addAll(List.of(more));
		return new ArrayList<>(new HashSet<>(all));
	}

}
