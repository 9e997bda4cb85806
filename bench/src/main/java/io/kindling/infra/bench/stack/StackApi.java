package io.kindling.infra.bench.stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.ClusterStack;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;

/**
 * The drill's calls through the balancer, as a client honouring {@code Retry-After} makes
 * them: rooms on the drill's one queue, profiles and likes.
 */
final class StackApi {

	/**
	 * The topic and room size every join of the drill uses; the killed primary holds its
	 * queue.
	 */
	static final long TOPIC = 1;

	static final int SIZE = 2;

	static final Duration FAILOVER_DEADLINE = Duration.ofSeconds(90);

	private final ServiceClient matching;

	private final ServiceClient swipes;

	private final ClusterStack stack;

	StackApi(ClusterStack stack) {
		this.matching = new ServiceClient(stack.ports().matching(), Duration.ofSeconds(30));
		this.swipes = new ServiceClient(stack.ports().swipe(), Duration.ofSeconds(30));
		this.stack = stack;
	}

	String session() {
		Response created = untilAnswered(() -> this.matching.send("POST", "/api/sessions", null, null),
				new ArrayList<>());
		if (created.status() != 201) {
			throw new AssertionError("POST /api/sessions answered " + created.status() + ": " + created.body());
		}
		return created.field("token");
	}

	Response join(String token) {
		return this.matching.send("POST", "/api/matching", token, "{\"topic_id\":" + TOPIC + ",\"size\":" + SIZE + "}");
	}

	String roomOf(String token) {
		Response status = untilAnswered(() -> this.matching.get("/api/matching", token), new ArrayList<>());
		return status.field("status").equals("matched") ? status.field("room_id") : "";
	}

	boolean match(long first, long second) {
		return match(first, second, new ArrayList<>());
	}

	/** Both profiles, then each likes the other: the second like must be the match. */
	boolean match(long first, long second, List<Integer> refused) {
		profile(first, "WOMAN", "MAN", refused);
		profile(second, "MAN", "WOMAN", refused);
		Response one = like(first, second, refused);
		Response other = like(second, first, refused);
		return one.status() == 200 && one.body().contains("\"matched\":false") && other.status() == 200
				&& other.body().contains("\"matched\":true");
	}

	private void profile(long user, String gender, String interestedIn, List<Integer> refused) {
		String body = """
				{"display_name":"Drill %d","gender":"%s","interested_in":["%s"],"birth_date":"1990-01-01",
				 "location":{"lat":52.52,"lon":13.40},"age_min":18,"age_max":99,"max_distance_km":100}"""
			.formatted(user, gender, interestedIn);
		Response answer = untilAnswered(() -> this.swipes.send("PUT", "/api/profile", token(user), body), refused);
		if (answer.status() != 200) {
			throw new AssertionError("PUT /api/profile answered " + answer.status() + ": " + answer.body());
		}
	}

	private Response like(long user, long target, List<Integer> refused) {
		String key = UUID.randomUUID().toString();
		// the same Idempotency-Key on every try: a retry after a 503 is the same swipe
		return untilAnswered(() -> this.swipes.send("POST", "/api/swipes", token(user),
				"{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}", "Idempotency-Key", key), refused);
	}

	int matchCount(long user) {
		Response matches = untilAnswered(() -> this.swipes.get("/api/matches?limit=20", token(user)),
				new ArrayList<>());
		return matches.json().get("matches").size();
	}

	private String token(long user) {
		return Hs256.token(this.stack.jwtSecret(), user);
	}

	/**
	 * Sends until the answer is not a 503, as a client honouring Retry-After would; every
	 * 503 is recorded. Fails on an I/O error or a stack that stays unavailable.
	 */
	static Response untilAnswered(Supplier<Response> call, List<Integer> refused) {
		long deadline = System.nanoTime() + FAILOVER_DEADLINE.toNanos();
		while (true) {
			Response response = call.get();
			if (response.status() != 503) {
				if (response.status() >= 500) {
					throw new AssertionError("a caller got " + response.status() + ": " + response.body());
				}
				return response;
			}
			refused.add(response.status());
			if (System.nanoTime() > deadline) {
				throw new AssertionError("still 503 after " + FAILOVER_DEADLINE.toSeconds() + " s: " + response.body());
			}
			BenchHost.sleep(Duration.ofMillis(100));
		}
	}

}
