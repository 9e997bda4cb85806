package io.kindling.outbox;

import org.jspecify.annotations.Nullable;

/**
 * Where {@link OutboxWriter} finds the W3C {@code traceparent} of the work appending an
 * event (the request that caused it), to store on the event's row.
 */
@FunctionalInterface
public interface TraceParentSource {

	/**
	 * The current trace context as a W3C {@code traceparent}
	 * ({@code 00-<trace id>-<span id>-<flags>}), or null when no trace is active.
	 */
	@Nullable String current();

	/** No tracing: rows carry no trace context. */
	static TraceParentSource none() {
		return () -> null;
	}

}
