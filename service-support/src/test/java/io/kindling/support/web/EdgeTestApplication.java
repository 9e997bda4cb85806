package io.kindling.support.web;

import java.time.Duration;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.http.HttpStatus;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A service in miniature: a JSON body, a validated parameter, and failures of ours. */
@SpringBootApplication
class EdgeTestApplication {

	enum Action {

		LIKE, PASS

	}

	record Join(@NotNull Long topicId, @NotNull @Min(2) @Max(3) Integer size, @NotNull Action action) {

	}

	record Page(int limit) {

	}

	/** Refusals of this service's own, declared as a feature declares them. */
	enum TestRefusals implements Refusal {

		ALREADY_DONE("already-done", HttpStatus.CONFLICT, "Already done"),

		SLOW_DOWN("slow-down", HttpStatus.TOO_MANY_REQUESTS, "Slow down");

		private final Type type;

		TestRefusals(String slug, HttpStatus status, String title) {
			this.type = new Type(slug, status, title);
		}

		@Override
		public Type type() {
			return this.type;
		}

	}

	@RestController
	@Validated
	static class Endpoints {

		@PostMapping("/join")
		Map<String, Object> join(@Valid @RequestBody Join join) {
			return Map.of("size", join.size());
		}

		@GetMapping("/page")
		Page page(@RequestParam(defaultValue = "20") @Min(1) @Max(100) int limit) {
			return new Page(limit);
		}

		@GetMapping("/whoami")
		Map<String, String> whoami(HttpServletRequest request) {
			return Map.of("address", request.getRemoteAddr());
		}

		@GetMapping("/echo-key")
		Map<String, String> echoKey(@RequestHeader("Idempotency-Key") String key) {
			return Map.of("key", key);
		}

		@GetMapping("/done")
		void done() {
			throw TestRefusals.ALREADY_DONE.refused("It was done before.");
		}

		@GetMapping("/slow-down")
		void slowDown(@RequestParam long millis) {
			throw TestRefusals.SLOW_DOWN.refused("Not so fast.", Duration.ofMillis(millis));
		}

		@GetMapping("/who")
		void who() {
			throw ProblemType.UNAUTHENTICATED.refused("Who are you?");
		}

		@GetMapping("/bug")
		void bug() {
			throw new IllegalArgumentException("secret internals: table users_v2");
		}

		@GetMapping("/redis-down")
		void redisDown() {
			throw new DataAccessResourceFailureException("Cannot get Jedis connection");
		}

		@GetMapping("/database-down")
		void databaseDown() {
			throw new CannotCreateTransactionException("Could not open JDBC Connection for transaction");
		}

		@GetMapping("/cluster-down")
		void clusterDown() {
			throw new InvalidDataAccessApiUsageException("CLUSTERDOWN The cluster is down");
		}

		@GetMapping("/read-only-replica")
		void readOnlyReplica() {
			throw new InvalidDataAccessApiUsageException("READONLY You can't write against a read only replica.");
		}

		@GetMapping("/script-error")
		void scriptError() {
			throw new InvalidDataAccessApiUsageException(
					"ERR user_script:3: Script attempted to access a non local key in a cluster node script");
		}

		@GetMapping("/cluster-attempts-refused")
		void clusterAttemptsRefused() {
			// as Jedis gives up on a slot whose primary is dead: each attempt's failure
			// suppressed, none the cause
			RuntimeException attempts = new RuntimeException("No more cluster attempts left.");
			attempts.addSuppressed(new RuntimeException("Failed to connect to 127.0.0.1:7000.",
					new java.net.ConnectException("Connection refused")));
			throw new InvalidDataAccessApiUsageException("No more cluster attempts left.", attempts);
		}

		@GetMapping("/cluster-attempts-cross-slot")
		void clusterAttemptsCrossSlot() {
			RuntimeException attempts = new RuntimeException("No more cluster attempts left.");
			attempts.addSuppressed(new InvalidDataAccessApiUsageException("CROSSSLOT Keys in request don't hash"));
			throw new InvalidDataAccessApiUsageException("No more cluster attempts left.", attempts);
		}

		@GetMapping("/cross-slot")
		void crossSlot() {
			throw new InvalidDataAccessApiUsageException("CROSSSLOT Keys in request don't hash to the same slot");
		}

	}

}
