package io.kindling.infra.bench.swipes;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.JvmCpu;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.swipes.SwipeMix.Swipe;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.ServiceJar;

/**
 * The mix sent to a swipe-service over HTTP (keep-alive connections, the bench's lean
 * client), with a real HS256 token per user, users 1 to {@code users}.
 */
final class HttpSwipes {

	static final String DATABASE = "kindling_swipe";

	/**
	 * Daily limits off (the bench swipes far more than a person does in a day), and the
	 * concurrency limit ({@link BenchStack#NO_OVERLOAD_LIMIT}).
	 */
	private static final List<String> SETTINGS = List.of("--kindling.swipe.daily-likes=0",
			"--kindling.swipe.daily-super-likes=0", BenchStack.NO_OVERLOAD_LIMIT);

	final ServiceJar service;

	private final BenchStack stack;

	private final ServiceClient http;

	private final SwipeMix mix;

	private HttpSwipes(BenchStack stack, ServiceJar service, int users) {
		this.stack = stack;
		this.service = service;
		this.http = new ServiceClient(service.port(), Duration.ofSeconds(10));
		this.mix = new SwipeMix(1, users);
	}

	/**
	 * Starts a swipe-service on the stack, with the profiles of users 1 to {@code users}.
	 */
	static HttpSwipes start(BenchStack stack, int users) throws Exception {
		ServiceJar service = stack.startService("swipe-service", "1g", "swipe-service.log", SETTINGS);
		Profiles.seed(stack, 1, users);
		return new HttpSwipes(stack, service, users);
	}

	/** Returns whether the swipe made a match; throws on anything but 200. */
	boolean send(Swipe swipe) throws IOException {
		Response response = this.http.sendOrThrow(Request.of("POST", "/api/swipes")
			.bearer(this.stack.token(swipe.userId()))
			.header("Idempotency-Key", swipe.key())
			.json("{\"target_user_id\":" + swipe.targetUserId() + ",\"action\":\"" + swipe.action() + "\"}"));
		if (response.status() != 200) {
			throw new IOException("HTTP " + response.status() + ": " + response.body());
		}
		return response.body().contains("\"matched\":true") && response.header("Idempotent-Replayed").isEmpty();
	}

	Result closedLoop(int clients, int seconds) throws InterruptedException {
		return this.mix.closedLoop(clients, seconds, this::send);
	}

	Result openLoop(double perSecond, int seconds) throws InterruptedException {
		return this.mix.openLoop(perSecond, seconds, this::send);
	}

	/** Full speed until the service's JIT has settled, after {@code seconds} of it. */
	void warmUp(int clients, int seconds) throws Exception {
		closedLoop(clients, seconds);
		JvmCpu.warmUntilJitSettles(this.service.pid(), () -> closedLoop(clients, 5));
	}

}
