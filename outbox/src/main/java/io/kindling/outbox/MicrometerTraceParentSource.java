package io.kindling.outbox;

import java.util.HexFormat;
import java.util.Locale;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;

/**
 * The current span of Micrometer Tracing, whichever tracer bridges it (Brave,
 * OpenTelemetry), written as a W3C {@code traceparent}. Written here rather than through
 * the configured propagator, so a row holds a {@code traceparent} whatever propagation
 * format the service's own HTTP calls use.
 */
public final class MicrometerTraceParentSource implements TraceParentSource {

	private final Tracer tracer;

	public MicrometerTraceParentSource(Tracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public @Nullable String current() {
		Span span = this.tracer.currentSpan();
		return (span != null) ? traceparent(span.context()) : null;
	}

	/**
	 * Version 00 of the W3C format; a 64-bit trace id is padded to 128 bits as W3C
	 * propagation does. Null for ids that W3C calls invalid (all zeros, not hex).
	 */
	static @Nullable String traceparent(TraceContext context) {
		String traceId = context.traceId().toLowerCase(Locale.ROOT);
		String spanId = context.spanId().toLowerCase(Locale.ROOT);
		if ((traceId.length() != 16 && traceId.length() != 32) || !validId(traceId) || spanId.length() != 16
				|| !validId(spanId)) {
			return null;
		}
		String flags = Boolean.TRUE.equals(context.sampled()) ? "01" : "00";
		return "00-" + "0".repeat(32 - traceId.length()) + traceId + "-" + spanId + "-" + flags;
	}

	/**
	 * Hex (the id is lower-cased already), not all zeros: checked in a plain loop, as
	 * every outbox row of a request asks (two regular expressions per id were 1.3 % of a
	 * match message's CPU; two streams of its characters, still 0.8 % of swipe-service's
	 * CPU in the chat bench's sends).
	 */
	private static boolean validId(String id) {
		boolean zeros = true;
		for (int i = 0; i < id.length(); i++) {
			char c = id.charAt(i);
			if (!HexFormat.isHexDigit(c)) {
				return false;
			}
			zeros &= (c == '0');
		}
		return !zeros;
	}

}
