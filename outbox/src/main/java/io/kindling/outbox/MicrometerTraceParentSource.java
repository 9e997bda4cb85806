package io.kindling.outbox;

import java.util.Locale;
import java.util.regex.Pattern;

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

	private static final Pattern HEX_ID = Pattern.compile("[0-9a-f]{16}|[0-9a-f]{32}");

	private static final Pattern ALL_ZEROS = Pattern.compile("0+");

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
		if (!HEX_ID.matcher(traceId).matches() || ALL_ZEROS.matcher(traceId).matches() || spanId.length() != 16
				|| !HEX_ID.matcher(spanId).matches() || ALL_ZEROS.matcher(spanId).matches()) {
			return null;
		}
		String flags = Boolean.TRUE.equals(context.sampled()) ? "01" : "00";
		return "00-" + "0".repeat(32 - traceId.length()) + traceId + "-" + spanId + "-" + flags;
	}

}
