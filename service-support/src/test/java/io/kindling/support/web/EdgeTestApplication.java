package io.kindling.support.web;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.awaitility.Awaitility;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A service in miniature: a JSON body, a validated parameter, failures of ours, requests
 * as slow as a test wants, and an event stream.
 */
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

	/**
	 * Holds the requests of {@code /gate} in their handler until a test opens it: slow
	 * requests, as long as the test wants.
	 */
	static final class Gate {

		private final Semaphore arrived = new Semaphore(0);

		private volatile CountDownLatch open = new CountDownLatch(1);

		void pass() throws InterruptedException {
			CountDownLatch open = this.open;
			this.arrived.release();
			open.await();
		}

		/** Waits until {@code requests} more are held in the handler. */
		boolean awaitHeld(int requests) throws InterruptedException {
			return this.arrived.tryAcquire(requests, 60, TimeUnit.SECONDS);
		}

		/** Lets every held request go, and closes again for the next ones. */
		void open() {
			CountDownLatch open = this.open;
			this.open = new CountDownLatch(1);
			open.countDown();
		}

	}

	@Bean
	Gate gate() {
		return new Gate();
	}

	/** The futures {@code /later} answers with, each completed when a test says. */
	static final class Later {

		private final Map<String, CompletableFuture<ResponseEntity<Map<String, Object>>>> futures = new ConcurrentHashMap<>();

		CompletableFuture<ResponseEntity<Map<String, Object>>> future(String id) {
			return this.futures.computeIfAbsent(id, (key) -> new CompletableFuture<>());
		}

		/** Whether a request with this id has reached its handler. */
		boolean asked(String id) {
			return this.futures.containsKey(id);
		}

		/** The future of a request that has reached its handler. */
		CompletableFuture<ResponseEntity<Map<String, Object>>> awaitAsked(String id) {
			return Awaitility.await()
				.atMost(Duration.ofSeconds(30))
				.until(() -> this.futures.get(id), Objects::nonNull);
		}

	}

	@Bean
	Later later() {
		return new Later();
	}

	@RestController
	@Validated
	static class Endpoints {

		private final Gate gate;

		private final Later later;

		Endpoints(Gate gate, Later later) {
			this.gate = gate;
			this.later = later;
		}

		@GetMapping(path = "/later", produces = MediaType.APPLICATION_JSON_VALUE)
		@AnsweredOnCompletion
		CompletableFuture<ResponseEntity<Map<String, Object>>> later(@RequestParam String id) {
			return this.later.future(id);
		}

		@GetMapping("/gate")
		Map<String, Object> gate() throws InterruptedException {
			this.gate.pass();
			return Map.of("passed", true);
		}

		@GetMapping("/stream")
		SseEmitter stream() throws IOException {
			SseEmitter stream = new SseEmitter(Duration.ofMinutes(5).toMillis());
			stream.send(SseEmitter.event().comment("open"));
			return stream;
		}

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

		@GetMapping("/queue-full")
		void queueFull() {
			throw ProblemType.OVERLOADED.refused("The queue is full.");
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

		@GetMapping("/database-gone-mid-transaction")
		void databaseGoneMidTransaction() {
			// as TransactionTemplate reports a statement whose connection dropped (the
			// database's writer killed): the rollback on that connection fails too
			TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
					new java.sql.SQLException("Connection is closed", "08003"));
			rollback.initApplicationException(new org.springframework.dao.RecoverableDataAccessException(
					"Communications link failure", new java.sql.SQLRecoverableException("link failure", "08S01")));
			throw rollback;
		}

		@GetMapping("/database-gone-at-commit")
		void databaseGoneAtCommit() {
			// the commit's connection dropped, and the rollback after it found the
			// connection closed (the pool's own message, no SQL state)
			throw new TransactionSystemException("JDBC rollback failed",
					new java.sql.SQLException("Connection is closed"));
		}

		@GetMapping("/bug-then-rollback-failed")
		void bugThenRollbackFailed() {
			TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
					new java.sql.SQLException("Connection is closed"));
			rollback.initApplicationException(new IllegalStateException("secret internals: a bug"));
			throw rollback;
		}

		@GetMapping("/cross-slot")
		void crossSlot() {
			throw new InvalidDataAccessApiUsageException("CROSSSLOT Keys in request don't hash to the same slot");
		}

	}

}
