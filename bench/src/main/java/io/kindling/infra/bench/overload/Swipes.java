package io.kindling.infra.bench.overload;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.swipes.Profiles;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;

/**
 * Mutual likes: calls {@code 2k} and {@code 2k + 1} are the two likes of pair {@code k}
 * (users {@code 2k + 1} and {@code 2k + 2}), so every pair whose two likes were both done
 * must have exactly one match, and a pair with a refused like none.
 */
final class Swipes implements Workload {

	private final BenchStack stack;

	private final Answers answers;

	private int profiles;

	Swipes(BenchStack stack, int capacity) {
		this.stack = stack;
		this.answers = new Answers(capacity);
	}

	@Override
	public String name() {
		return "swipes";
	}

	@Override
	public void prepare(int calls) throws Exception {
		int users = Math.min(calls, this.answers.capacity()) + 2;
		if (users > this.profiles) {
			Profiles.seed(this.stack, this.profiles + 1, users - this.profiles);
			this.profiles = users;
		}
	}

	@Override
	public boolean call(ServiceClient http, int index) throws IOException {
		if (index + 2 > this.profiles) {
			throw new IllegalStateException("no profile prepared for call " + index);
		}
		this.answers.begin(index);
		long user = user(index);
		long target = (index % 2 == 0) ? user + 1 : user - 1;
		Response answer = http.sendOrThrow(Request.of("POST", "/api/swipes")
			.bearer(this.stack.token(user))
			.header("Idempotency-Key", "overload-" + index)
			.json("{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}"));
		return this.answers.record(index, answer, () -> answer.json().get("match_id").asLong(0));
	}

	@Override
	public Check check() throws Exception {
		int calls = this.answers.calls();
		Map<Long, Integer> stored = new HashMap<>();
		Map<Long, Integer> matchesByPair = new HashMap<>();
		Set<Long> matchIds = new HashSet<>();
		try (Connection db = connect(); Statement statement = db.createStatement()) {
			try (ResultSet rows = statement.executeQuery("SELECT user_id, COUNT(*) FROM swipe_history WHERE user_id <= "
					+ (calls + 1) + " GROUP BY user_id")) {
				while (rows.next()) {
					stored.put(rows.getLong(1), rows.getInt(2));
				}
			}
			try (ResultSet rows = statement
				.executeQuery("SELECT match_id, user_id_1 FROM matches WHERE user_id_1 <= " + (calls + 1))) {
				while (rows.next()) {
					matchIds.add(rows.getLong(1));
					matchesByPair.merge((rows.getLong(2) - 1) / 2, 1, Integer::sum);
				}
			}
		}
		long lost = 0;
		long doubled = 0;
		long refusedButDone = 0;
		for (int index = 0; index < calls; index++) {
			int rows = stored.getOrDefault(user(index), 0);
			switch (this.answers.state(index)) {
				case DONE -> {
					lost += (rows == 0
							|| (this.answers.fact(index) != 0 && !matchIds.contains(this.answers.fact(index)))) ? 1 : 0;
					doubled += (rows > 1) ? 1 : 0;
				}
				case REFUSED -> refusedButDone += (rows > 0) ? 1 : 0;
				default -> {
					// a call that timed out may or may not have been done
				}
			}
		}
		for (int pair = 0; 2 * pair + 1 < calls; pair++) {
			Answers.State first = this.answers.state(2 * pair);
			Answers.State second = this.answers.state(2 * pair + 1);
			int matches = matchesByPair.getOrDefault((long) pair, 0);
			if (first == Answers.State.DONE && second == Answers.State.DONE) {
				lost += (matches == 0) ? 1 : 0;
			}
			else if (first == Answers.State.REFUSED || second == Answers.State.REFUSED) {
				refusedButDone += (matches > 0) ? 1 : 0;
			}
			doubled += (matches > 1) ? 1 : 0;
		}
		return this.answers.check("swipes and matches", lost, doubled, refusedButDone);
	}

	/** The user who swipes in call {@code index}. */
	private static long user(int index) {
		return index + 1L;
	}

	private Connection connect() throws Exception {
		return this.stack.connect(OverloadBench.SWIPES);
	}

}
