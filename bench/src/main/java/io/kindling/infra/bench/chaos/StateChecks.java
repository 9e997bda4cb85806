package io.kindling.infra.bench.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.infra.bench.BenchHost;

/**
 * The checks of what the stack kept, once the load is over: every pair whose two likes
 * were acknowledged has exactly one match, no session is in two conversations, and every
 * match is on Kafka.
 */
record StateChecks(Endpoints endpoints, ChaosLoad load, Checks checks) {

	void run() throws Exception {
		Map<String, Integer> matches = matches();
		checkOneMatchPerPair(matches);
		checkNoSessionTwice();
		checkOnKafka(matches);
	}

	/** How many matches each pair of users has, by "user_id_1:user_id_2". */
	private Map<String, Integer> matches() throws Exception {
		Map<String, Integer> matches = new HashMap<>();
		try (Connection connection = this.endpoints.database("kindling_swipe");
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(
						"SELECT CONCAT(user_id_1, ':', user_id_2), COUNT(*) FROM matches GROUP BY user_id_1, user_id_2")) {
			while (rows.next()) {
				matches.put(rows.getString(1), rows.getInt(2));
			}
		}
		return matches;
	}

	private void checkOneMatchPerPair(Map<String, Integer> matches) {
		Set<String> acknowledged = new HashSet<>();
		for (long[] pair : this.load.acknowledgedPairs) {
			acknowledged.add(pair[0] + ":" + pair[1]);
		}
		List<String> wrong = acknowledged.stream().filter((pair) -> matches.getOrDefault(pair, 0) != 1).toList();
		this.checks.check(wrong.isEmpty(),
				"each of the %d pairs whose two likes were acknowledged has exactly one match%s", acknowledged.size(),
				wrong.isEmpty() ? "" : " (not: " + wrong.subList(0, Math.min(10, wrong.size())) + ")");
	}

	private void checkNoSessionTwice() throws Exception {
		try (Connection connection = this.endpoints.database("kindling_matching");
				Statement statement = connection.createStatement();
				ResultSet doubled = statement.executeQuery("""
						SELECT COUNT(*) FROM (SELECT participant_key FROM conversation_participants
						GROUP BY participant_key HAVING COUNT(*) > 1) twice""");
				Statement counting = connection.createStatement();
				ResultSet rooms = counting.executeQuery("SELECT COUNT(*) FROM conversations")) {
			doubled.next();
			rooms.next();
			this.checks.check(doubled.getLong(1) == 0, "no session of %d is in two conversations (%d rooms formed)",
					this.load.sessions.get(), rooms.getLong(1));
		}
	}

	/** Waits up to 90 s for the consumer to have read every match's MATCH_CREATED. */
	private void checkOnKafka(Map<String, Integer> matches) {
		long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
		Set<String> missing = new HashSet<>(matches.keySet());
		while (System.nanoTime() < deadline) {
			missing.removeAll(this.load.matchesOnKafka);
			if (missing.isEmpty()) {
				break;
			}
			BenchHost.sleep(Duration.ofMillis(500));
		}
		this.checks.check(missing.isEmpty(), "every one of the %d matches is on Kafka (MATCH_CREATED)%s",
				matches.size(), missing.isEmpty() ? "" : " (" + missing.size() + " missing)");
	}

}
