package io.kindling.infra.bench.overload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.rooms.BenchTopics;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;

/**
 * Room joins of two, each call a new session, spread over topics of the bench's own: a
 * join that was answered {@code matched} must have its seat in the database, no session
 * may sit in two rooms, and a refused join none.
 */
final class Joins implements Workload {

	private static final int FIRST_TOPIC = 2000;

	private static final int TOPICS = 64;

	/** The service settings the bench needs: one address joins far more than a person. */
	static final List<String> SETTINGS = List.of("--kindling.matching.rate-limit.joins-per-minute=0",
			"--kindling.matching.rate-limit.sessions-per-minute=0");

	private final ServiceClient http;

	private final BenchStack stack;

	private final Answers answers;

	private final String[] tokens;

	private int sessions;

	Joins(ServiceClient http, BenchStack stack, int capacity) throws Exception {
		this.http = http;
		this.stack = stack;
		this.answers = new Answers(capacity);
		this.tokens = new String[capacity];
		try (Connection db = connect()) {
			BenchTopics.add(db, FIRST_TOPIC, TOPICS, "overload topic");
		}
	}

	@Override
	public String name() {
		return "room joins";
	}

	/** New sessions, made before the load they are for (a 503 on the way is retried). */
	@Override
	public void prepare(int calls) throws Exception {
		int wanted = Math.min(calls, this.tokens.length);
		AtomicInteger next = new AtomicInteger(this.sessions);
		Load.Result made = Load.closedLoop(8, Duration.ofHours(1), (call) -> {
			int index = next.getAndIncrement();
			if (index >= wanted) {
				call.finish();
				return;
			}
			Response session = this.http.sendOrThrow(io.kindling.infra.http.Request.of("POST", "/api/sessions"));
			for (int retry = 0; session.status() == 503 && retry < 50; retry++) {
				Thread.sleep(100);
				session = this.http.sendOrThrow(io.kindling.infra.http.Request.of("POST", "/api/sessions"));
			}
			if (session.status() != 201) {
				throw new IOException("no session: HTTP " + session.status());
			}
			this.tokens[index] = session.json().get("token").asString();
		});
		if (made.errors() > 0) {
			throw new IllegalStateException("sessions failed: " + made.errorKinds());
		}
		this.sessions = Math.max(this.sessions, wanted);
	}

	@Override
	public boolean call(ServiceClient http, int index) throws IOException {
		if (index >= this.sessions) {
			throw new IllegalStateException("no session prepared for call " + index);
		}
		this.answers.begin(index);
		Response answer = http.send("POST", "/api/matching", this.tokens[index],
				"{\"topic_id\":" + (FIRST_TOPIC + index % TOPICS) + ",\"size\":2}");
		return this.answers.record(index, answer,
				() -> (answer.status() == 200) ? answer.json().get("conversation_id").asLong() : 0);
	}

	@Override
	public Check check() throws Exception {
		Map<String, List<Long>> seats = new HashMap<>();
		try (Connection db = connect();
				Statement statement = db.createStatement();
				ResultSet rows = statement
					.executeQuery("SELECT conversation_id, participant_key FROM conversation_participants")) {
			while (rows.next()) {
				seats.computeIfAbsent(rows.getString(2), (key) -> new ArrayList<>()).add(rows.getLong(1));
			}
		}
		MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
		long lost = 0;
		long doubled = 0;
		long refusedButDone = 0;
		for (int index = 0; index < this.answers.calls(); index++) {
			String key = HexFormat.of().formatHex(sha256.digest(this.tokens[index].getBytes(StandardCharsets.UTF_8)));
			List<Long> rooms = seats.getOrDefault(key, List.of());
			doubled += (rooms.size() > 1) ? 1 : 0;
			switch (this.answers.state(index)) {
				case DONE ->
					lost += (this.answers.fact(index) != 0 && !rooms.contains(this.answers.fact(index))) ? 1 : 0;
				case REFUSED -> refusedButDone += rooms.isEmpty() ? 0 : 1;
				default -> {
					// a call that timed out may or may not have been done
				}
			}
		}
		return this.answers.check("seats in rooms", lost, doubled, refusedButDone);
	}

	private Connection connect() throws Exception {
		return this.stack.connect(OverloadBench.ROOMS);
	}

}
