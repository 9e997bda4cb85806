package io.kindling.infra.bench.rooms;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;

/**
 * Two matching-service instances of a bench stack, A and B, and the closed loops the
 * rooms bench runs on them: the no-op request and join→matched.
 */
final class RoomsLoad {

	static final String DATABASE = "kindling_matching";

	/** The bench adds its own topics so that concurrent pairs never meet by accident. */
	static final int FIRST_TOPIC = 1000;

	static final int TOPICS = 512;

	/**
	 * Rate limits off: the bench is one address joining far more than a person does. Each
	 * worker's two sessions form a room with each other every round: the rematch cooldown
	 * would keep them apart from the second round on. The concurrency limit off too: the
	 * closed loop measures the ceiling (the overload bench measures the shedding), and a
	 * leave refused {@code 503} would leave a claim behind that refuses the worker's next
	 * join {@code 409}.
	 */
	private static final List<String> SETTINGS = List.of("--kindling.matching.rate-limit.joins-per-minute=0",
			"--kindling.matching.rate-limit.sessions-per-minute=0", "--kindling.matching.rematch-cooldown=0",
			BenchStack.NO_OVERLOAD_LIMIT);

	final BenchStack stack;

	final ServiceClient a;

	final ServiceClient b;

	private RoomsLoad(BenchStack stack, ServiceClient a, ServiceClient b) {
		this.stack = stack;
		this.a = a;
		this.b = b;
	}

	/** Starts the two instances on the stack and adds the bench's topics. */
	static RoomsLoad start(BenchStack stack) throws Exception {
		int portA = stack.startService("matching-service", "512m", "matching-a.log", SETTINGS).port();
		int portB = stack.startService("matching-service", "512m", "matching-b.log", SETTINGS).port();
		try (Connection db = stack.connect(DATABASE)) {
			BenchTopics.add(db, FIRST_TOPIC, TOPICS, "bench topic");
		}
		return new RoomsLoad(stack, new ServiceClient(portA, Duration.ofSeconds(30)),
				new ServiceClient(portB, Duration.ofSeconds(30)));
	}

	/**
	 * The JIT needs tens of thousands of calls of the join path before it is compiled.
	 */
	void warmUp(int clients, int seconds) throws InterruptedException {
		noOp(clients, Math.max(3, seconds / 4));
		rooms(clients, Math.max(3, seconds - seconds / 4));
	}

	/**
	 * Closed loop on the liveness probe: the framework's own ceiling on these instances.
	 */
	Result noOp(int clients, int seconds) throws InterruptedException {
		return Load.closedLoop(clients, Duration.ofSeconds(seconds), (call) -> {
			ServiceClient http = (call.index() % 2 == 0) ? this.a : this.b;
			Response response = http.send("GET", "/actuator/health/liveness", null, null);
			if (response.status() != 200) {
				throw new IllegalStateException("liveness " + response.status());
			}
		});
	}

	/**
	 * Closed loop of rooms: each worker has two sessions and its own topic; the first
	 * joins on one instance and waits, the second's join on the other forms the room
	 * (200, the one timed); then both leave: four requests. Even workers join first on A,
	 * odd ones on B, so both instances form rooms: the warm-up compiles the forming path
	 * on both, which the push phase then needs on A. A room that did not form is an error
	 * named by the statuses of its two joins.
	 */
	Result rooms(int clients, int seconds) throws InterruptedException {
		String[][] sessions = new String[clients][2];
		for (int i = 0; i < clients; i++) {
			sessions[i][0] = session(this.a);
			sessions[i][1] = session(this.b);
		}
		return Load.closedLoop(clients, Duration.ofSeconds(seconds), (call) -> {
			int worker = call.index();
			String first = sessions[worker][0];
			String second = sessions[worker][1];
			ServiceClient waitsOn = (worker % 2 == 0) ? this.a : this.b;
			ServiceClient formsOn = (worker % 2 == 0) ? this.b : this.a;
			String body = join(worker);
			Response waiting = waitsOn.send("POST", "/api/matching", first, body);
			call.startClock();
			Response matched = formsOn.send("POST", "/api/matching", second, body);
			call.stopClock();
			waitsOn.send("DELETE", "/api/matching", first, null);
			formsOn.send("DELETE", "/api/matching", second, null);
			if (waiting.status() != 202 || matched.status() != 200) {
				throw new IllegalStateException(waiting.status() + " then " + matched.status());
			}
		});
	}

	/** A join's body: a room of two on the bench topic {@code n} picks. */
	static String join(int n) {
		return "{\"topic_id\":" + (FIRST_TOPIC + Math.floorMod(n, TOPICS)) + ",\"size\":2}";
	}

	static String session(ServiceClient http) {
		Response response = http.send("POST", "/api/sessions", null, null);
		if (response.status() != 201) {
			throw new IllegalStateException("no session: " + response);
		}
		return response.field("token");
	}

}
