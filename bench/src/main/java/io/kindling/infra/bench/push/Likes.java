package io.kindling.infra.bench.push;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.swipes.Profiles;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import tools.jackson.databind.JsonNode;

/** The push bench's likes, all sent to one instance. */
final class Likes {

	/** What the loops count: likes that made a match. */
	static final String MATCHES = "matches";

	/** The users who like each other in pairs to measure the maximum: ids from here. */
	private static final long PAIRS_FROM = 1_000_000_000L;

	/**
	 * As many pair users: u's k-th pair is u xor k, so there are far more pairs than a
	 * run makes.
	 */
	private static final int PAIR_USERS = 1 << 14;

	private final ServiceClient http;

	private final BenchStack stack;

	private final AtomicLong nextPair = new AtomicLong();

	Likes(ServiceClient http, BenchStack stack) throws Exception {
		this.http = http;
		this.stack = stack;
		Profiles.seed(stack, PAIRS_FROM, PAIR_USERS);
	}

	/**
	 * The maximum: {@code clients} clients each making a match at a time, two users who
	 * have not met liking each other; the like that makes the match is the one timed.
	 */
	Result pairs(int clients, int seconds) throws InterruptedException {
		return Load.closedLoop(clients, Duration.ofSeconds(seconds), (call) -> {
			long[] pair = nextPair();
			like(pair[0], pair[1], "pair-" + pair[0] + "-" + pair[1], false);
			call.startClock();
			like(pair[1], pair[0], "pair-" + pair[1] + "-" + pair[0], true);
			call.count(MATCHES);
		});
	}

	private long[] nextPair() {
		while (true) {
			long index = this.nextPair.getAndIncrement();
			int user = (int) (index % PAIR_USERS);
			int other = user ^ (int) (1 + index / PAIR_USERS);
			if (other > user) {
				return new long[] { PAIRS_FROM + user, PAIRS_FROM + other };
			}
		}
	}

	/**
	 * Each online user likes its share of the partners (partner p goes to user p mod
	 * online), setting up the matches the push phase makes.
	 */
	void likeEveryPartner(int online, long firstPartner, int partners) throws InterruptedException {
		AtomicInteger next = new AtomicInteger();
		Result likes = Load.closedLoop(32, Duration.ofHours(1), (call) -> {
			int index = next.getAndIncrement();
			if (index >= partners) {
				call.finish();
				return;
			}
			like(1 + index % online, firstPartner + index, "first-" + (firstPartner + index), false, 5);
		});
		if (likes.errors() > 0) {
			throw new IllegalStateException("the first likes failed: " + likes.errorKinds());
		}
	}

	/**
	 * A like with its Idempotency-Key, which must make a match or not; returns the
	 * match's id.
	 */
	long like(long user, long target, String key, boolean match) throws IOException, InterruptedException {
		return like(user, target, key, match, 0);
	}

	/**
	 * The same, asking again up to {@code retries} times while the answer is a 503, as it
	 * says is safe: for setting up, where a store slow to answer on a busy machine is not
	 * what is measured.
	 */
	private long like(long user, long target, String key, boolean match, int retries)
			throws IOException, InterruptedException {
		Request like = Request.of("POST", "/api/swipes")
			.bearer(this.stack.token(user))
			.header("Idempotency-Key", key)
			.json("{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}");
		Response answer = this.http.sendOrThrow(like);
		for (int retry = 0; retry < retries && answer.status() == 503; retry++) {
			TimeUnit.MILLISECONDS.sleep(200);
			answer = this.http.sendOrThrow(like);
		}
		JsonNode body = (answer.status() == 200) ? answer.json() : null;
		if (body == null || body.get("matched").asBoolean() != match) {
			throw new IOException((match ? "no match: HTTP " : "HTTP ") + answer.status() + " " + answer.body());
		}
		return match ? body.get("match_id").asLong() : 0;
	}

}
