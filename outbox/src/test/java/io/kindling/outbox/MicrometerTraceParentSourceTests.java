package io.kindling.outbox;

import brave.Tracing;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The W3C {@code traceparent} written from a Micrometer trace context. */
class MicrometerTraceParentSourceTests {

	static final Tracing tracing = Tracing.newBuilder().traceId128Bit(true).build();

	static final Tracer tracer = new BraveTracer(tracing.tracer(),
			new BraveCurrentTraceContext(tracing.currentTraceContext()));

	@AfterAll
	static void close() {
		tracing.close();
	}

	@Test
	void aSampledContextIsVersion00WithTheSampledFlag() {
		assertThat(traceparent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", true))
			.isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
		assertThat(traceparent("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", false))
			.isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
	}

	@Test
	void aSixtyFourBitTraceIdIsPaddedTo128Bits() {
		assertThat(traceparent("a3ce929d0e0e4736", "00f067aa0ba902b7", true))
			.isEqualTo("00-0000000000000000a3ce929d0e0e4736-00f067aa0ba902b7-01");
	}

	@Test
	void idsThatW3cCallsInvalidAreNoTraceparent() {
		String span = "00f067aa0ba902b7";
		String trace = "4bf92f3577b34da6a3ce929d0e0e4736";
		assertThat(MicrometerTraceParentSource.traceparent(new Ids("0".repeat(32), span))).isNull();
		assertThat(MicrometerTraceParentSource.traceparent(new Ids(trace, "0".repeat(16)))).isNull();
		assertThat(MicrometerTraceParentSource.traceparent(new Ids("4bf92f3577b34da6a3ce929d0e0e473g", span))).isNull();
		assertThat(MicrometerTraceParentSource.traceparent(new Ids(trace, "00f067aa0ba902b"))).isNull();
		assertThat(MicrometerTraceParentSource.traceparent(new Ids(trace.substring(1), span))).isNull();
		// upper-case hex is read as lower case
		assertThat(MicrometerTraceParentSource.traceparent(new Ids(trace.toUpperCase(), span)))
			.isEqualTo("00-" + trace + "-" + span + "-00");
	}

	@Test
	void noSpanInScopeIsNoTraceparent() {
		assertThat(new MicrometerTraceParentSource(tracer).current()).isNull();
		assertThat(new MicrometerTraceParentSource(Tracer.NOOP).current()).isNull();
	}

	@Test
	void theSpanInScopeIsTheParent() {
		io.micrometer.tracing.Span span = tracer.nextSpan().start();
		try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
			assertThat(new MicrometerTraceParentSource(tracer).current()).isEqualTo("00-" + span.context().traceId()
					+ "-" + span.context().spanId() + "-" + (span.isNoop() ? "00" : "01"));
		}
		finally {
			span.end();
		}
	}

	private static String traceparent(String traceId, String spanId, boolean sampled) {
		TraceContext context = tracer.traceContextBuilder().traceId(traceId).spanId(spanId).sampled(sampled).build();
		return MicrometerTraceParentSource.traceparent(context);
	}

	/** A context with any ids, as a tracer that does not check them could hand over. */
	private record Ids(String traceId, String spanId) implements TraceContext {

		@Override
		public @Nullable String parentId() {
			return null;
		}

		@Override
		public Boolean sampled() {
			return false;
		}

	}

}
