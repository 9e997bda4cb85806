package io.kindling.support.web;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import com.netflix.concurrency.limits.Limit;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
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
 * Netflix's concurrency-limits: fixed, or adaptive (its {@code Gradient2Limit}, which
 * lowers the limit while answers take longer than their long-run average and raises it
 * while they do not).
 * <p>
 * The management endpoints (health, metrics) are never refused. A request holds its slot
 * until its handler returns: an event stream or a WebSocket, which go on asynchronously
 * after that, hold none for their life.
 */
final class LoadShedding extends OncePerRequestFilter {

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

	private static Limit limit(OverloadProperties properties) {
		int minLimit = Math.min(properties.minLimit(), properties.limit());
		if (!properties.adaptive() || minLimit == properties.limit()) {
			return FixedLimit.of(properties.limit());
		}
		// the latency of a window of answers, not of each one: one slow answer does not
		// move the limit
		return WindowedLimit.newBuilder()
			.minWindowTime(100, TimeUnit.MILLISECONDS)
			.maxWindowTime(1, TimeUnit.SECONDS)
			.build(Gradient2Limit.newBuilder()
				.initialLimit(properties.limit())
				.minLimit(minLimit)
				.maxConcurrency(properties.limit())
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
