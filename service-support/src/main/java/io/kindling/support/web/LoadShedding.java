package io.kindling.support.web;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import com.netflix.concurrency.limits.limiter.AbstractLimiter;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the requests one instance works on at once ({@code kindling.web.overload.*}).
 * Past the limit a request is refused at once with {@code 503 overloaded} and
 * {@code Retry-After}, before its credentials are checked or its body read: a queue in
 * front of busy handlers only grows until every caller has given up waiting, and the
 * service then works for callers that are gone (congestion collapse). The limit is
 * Netflix's concurrency-limits: fixed, or adaptive ({@link #limit}: lower while answers
 * take longer than they did unloaded, higher again while they do not).
 * <p>
 * The management endpoints (health, metrics) are never refused. A request holds its slot
 * until its handler returns: an event stream or a WebSocket, which go on asynchronously
 * after that, hold none for their life.
 */
final class LoadShedding extends OncePerRequestFilter {

	private static final int PROBE_WINDOWS = 600;

	private final AbstractLimiter<Void> limiter;

	private final String managementPath;

	private final String retryAfterSeconds;

	private final byte[] refusal;

	private final LongAdder refused = new LongAdder();

	LoadShedding(OverloadProperties properties, String managementPath, JsonMapper json) {
		this.limiter = SimpleLimiter.newBuilder().named("web").limit(limit(properties)).build();
		this.managementPath = managementPath;
		long seconds = properties.retryAfter().toSeconds() + ((properties.retryAfter().toNanosPart() > 0) ? 1 : 0);
		this.retryAfterSeconds = String.valueOf(seconds);
		// the same bytes for every refusal: refusing must cost next to nothing
		this.refusal = json.writeValueAsBytes(Problems.of(ProblemType.OVERLOADED, detail(seconds)));
	}

	static String detail(long retryAfterSeconds) {
		return "this instance is working on as many requests as it can; nothing was done, so the same request may be "
				+ "sent again after " + retryAfterSeconds + " s (Retry-After)";
	}

	/**
	 * Fixed, or TCP Vegas's rule over windows of answers: the window's latency against
	 * the least seen (the instance unloaded) says how many requests are queueing inside
	 * the instance (for its CPU, its pools), and the limit comes down while more than a
	 * few are and goes back up while none are. Netflix's {@code Gradient2Limit}, used
	 * before, compares the latency with its own long-run average instead, which catches
	 * up with a steady overload within seconds: under one it stayed at its maximum, and
	 * on two cores 16 swipes at once, four times what keeps them busy, made every answer,
	 * refusals included, wait for a core.
	 */
	static Limit limit(OverloadProperties properties) {
		int minLimit = Math.min(properties.minLimit(), properties.limit());
		if (!properties.adaptive() || minLimit == properties.limit()) {
			return FixedLimit.of(properties.limit());
		}
		// the latency of a window of answers, not of each one: one slow answer does not
		// move the limit
		return WindowedLimit.newBuilder()
			.minWindowTime(100, TimeUnit.MILLISECONDS)
			.maxWindowTime(1, TimeUnit.SECONDS)
			.build(VegasLimit.newBuilder()
				.initialLimit(properties.limit())
				.maxConcurrency(properties.limit())
				.decreaseFunction((limit) -> Math.max(minLimit, limit - Math.max(1, Math.log10(limit))))
				// the unloaded latency is the least seen, taken afresh every 300 to 600
				// windows per place of the limit (minutes): more often, and a steady
				// overload's latency would soon pass for unloaded
				.probeMultiplier(PROBE_WINDOWS)
				.build());
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (isManagement(request)) {
			chain.doFilter(request, response);
			return;
		}
		Optional<Limiter.Listener> slot = this.limiter.acquire(null);
		if (slot.isEmpty()) {
			refuse(response);
			return;
		}
		boolean answered = false;
		try {
			chain.doFilter(request, response);
			// a stream's setup is not a measure of how long answers take
			answered = !request.isAsyncStarted();
		}
		finally {
			if (answered) {
				slot.get().onSuccess();
			}
			else {
				slot.get().onIgnore();
			}
		}
	}

	private boolean isManagement(HttpServletRequest request) {
		// the servlet path is decoded and normalised: /actuator/../api is not /actuator
		String path = request.getServletPath() + ((request.getPathInfo() != null) ? request.getPathInfo() : "");
		return path.equals(this.managementPath) || path.startsWith(this.managementPath + "/");
	}

	private void refuse(HttpServletResponse response) throws IOException {
		this.refused.increment();
		response.setStatus(ProblemType.OVERLOADED.status().value());
		response.setHeader(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds);
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setContentLength(this.refusal.length);
		response.getOutputStream().write(this.refusal);
	}

	/** The limit now. */
	int limit() {
		return this.limiter.getLimit();
	}

	/** Requests at work now. */
	int inFlight() {
		return this.limiter.getInflight();
	}

	/** Requests refused since the start. */
	long refused() {
		return this.refused.sum();
	}

}
