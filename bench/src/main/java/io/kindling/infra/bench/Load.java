package io.kindling.infra.bench;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The benches' one load driver. A closed loop runs {@code clients} threads, each calling
 * the operation again as soon as it returns; an open loop starts operations at a fixed
 * rate whatever the answers take, each on its own virtual thread, and times each from
 * when it was due (no coordinated omission); a sequence runs a number of operations one
 * after the other. Each gives a {@link Result}: operations done, errors (an operation
 * that throws) by kind, named counts, and the latency of the operations done in an
 * HdrHistogram of microseconds.
 */
public final class Load {

	/** The first few errors of a run are printed (to stderr) as they happen. */
	private static final int ERRORS_SHOWN = 3;

	private Load() {
	}

	/** One operation; it fails by throwing. */
	@FunctionalInterface
	public interface Operation {

		void run(Call call) throws Exception;

	}

	/** What an operation can tell the driver about its one call. */
	public static final class Call {

		private final int index;

		private final boolean measured;

		private final long runStartNanos;

		private final Tally tally;

		private long startNanos;

		private long stopNanos;

		private boolean none;

		private Call(int index, boolean measured, Tally tally, long startNanos) {
			this.index = index;
			this.measured = measured;
			this.runStartNanos = tally.startedNanos;
			this.tally = tally;
			this.startNanos = startNanos;
		}

		/**
		 * The client's number in a closed loop; in an open loop or a sequence, the call's
		 * number from 0 (lead-in included).
		 */
		public int index() {
			return this.index;
		}

		/** False during an open loop's lead-in, whose calls count apart. */
		public boolean measured() {
			return this.measured;
		}

		/** How long this call's run has gone on (a lead-in is a run of its own). */
		public Duration sinceRunStart() {
			return Duration.ofNanos(System.nanoTime() - this.runStartNanos);
		}

		/** Times the call from now: what came before was its preparation. */
		public void startClock() {
			this.startNanos = System.nanoTime();
		}

		/** Ends the call's time now: what follows is its clean-up. */
		public void stopClock() {
			this.stopNanos = System.nanoTime();
		}

		/** Adds one to the count {@code name} (a match, a missed event). */
		public void count(String name) {
			count(name, 1);
		}

		public void count(String name, long amount) {
			this.tally.counts.computeIfAbsent(name, (key) -> new LongAdder()).add(amount);
		}

		/**
		 * There is no more work: this call did nothing and is not counted, and this
		 * client stops, or the open loop starts no more.
		 */
		public void finish() {
			this.none = true;
			this.tally.finished.set(true);
		}

	}

	/**
	 * What a run did.
	 *
	 * @param operations calls that returned
	 * @param errors calls that threw
	 * @param errorKinds errors by kind (the exception's message)
	 * @param counts what the operations counted, by name
	 * @param seconds the run's length, until its last call returned
	 * @param latency the returned calls' times, in µs
	 */
	public record Result(long operations, long errors, Map<String, Long> errorKinds, Map<String, Long> counts,
			double seconds, Histogram latency) {

		public static final Result NONE = new Result(0, 0, Map.of(), Map.of(), 0, new Histogram(3));

		public double perSecond() {
			return this.operations / this.seconds;
		}

		/** Calls made: returned or thrown. */
		public long attempts() {
			return this.operations + this.errors;
		}

		public long count(String name) {
			return this.counts.getOrDefault(name, 0L);
		}

		/** The latency at {@code percentile} (100 is the maximum) in milliseconds. */
		public double ms(double percentile) {
			return Percentiles.ms(this.latency, percentile);
		}

		/** Both runs as one: their sums, and the latency of both. */
		public Result plus(Result other) {
			Histogram both = this.latency.copy();
			both.add(other.latency);
			return new Result(this.operations + other.operations, this.errors + other.errors,
					sum(this.errorKinds, other.errorKinds), sum(this.counts, other.counts),
					this.seconds + other.seconds, both);
		}

		private static Map<String, Long> sum(Map<String, Long> first, Map<String, Long> second) {
			Map<String, Long> both = new TreeMap<>(first);
			second.forEach((name, value) -> both.merge(name, value, Long::sum));
			return Collections.unmodifiableMap(both);
		}

	}

	/** An open loop's calls: those of its lead-in apart from the measured ones. */
	public record OpenResult(Result leadIn, Result measured) {

	}

	/**
	 * {@code clients} threads, each calling {@code operation} in a loop for the duration.
	 */
	public static Result closedLoop(int clients, Duration duration, Operation operation) throws InterruptedException {
		Tally tally = new Tally();
		long end = System.nanoTime() + duration.toNanos();
		ThreadFactory threads = Thread.ofPlatform().name("load-client-", 0).factory();
		try (ExecutorService pool = Executors.newThreadPerTaskExecutor(threads)) {
			for (int client = 0; client < clients; client++) {
				int index = client;
				pool.execute(() -> {
					while (System.nanoTime() < end && !tally.finished.get()) {
						tally.call(operation, new Call(index, true, tally, System.nanoTime()));
					}
				});
			}
		}
		return tally.result();
	}

	/**
	 * Starts {@code operation} {@code perSecond} times a second for the duration, each
	 * call on its own virtual thread.
	 */
	public static Result openLoop(double perSecond, Duration duration, Operation operation)
			throws InterruptedException {
		return openLoop(perSecond, Duration.ZERO, duration, operation).measured();
	}

	/**
	 * As {@link #openLoop(double, Duration, Operation)}, after a lead-in at the same rate
	 * whose calls count apart: the path's first use is paid there, and the measured calls
	 * meet a steady rate.
	 */
	public static OpenResult openLoop(double perSecond, Duration leadIn, Duration duration, Operation operation)
			throws InterruptedException {
		Tally leadInTally = new Tally();
		Tally tally = new Tally();
		long intervalNanos = (long) (1e9 / perSecond);
		long leadInCalls = leadIn.toNanos() / intervalNanos;
		long start = System.nanoTime() + leadInCalls * intervalNanos;
		long first = start - leadInCalls * intervalNanos;
		long end = start + duration.toNanos();
		// the measured run's length: from its first due call to its last answer
		tally.startedNanos = start;
		leadInTally.startedNanos = first;
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			int index = 0;
			for (long due = first; due < end && !tally.finished.get()
					&& !leadInTally.finished.get(); due += intervalNanos) {
				long wait = due - System.nanoTime();
				if (wait > 0) {
					TimeUnit.NANOSECONDS.sleep(wait);
				}
				boolean measured = due >= start;
				Tally into = measured ? tally : leadInTally;
				Call call = new Call(index++, measured, into, due);
				threads.execute(() -> into.call(operation, call));
			}
		}
		return new OpenResult(leadInTally.result(), tally.result());
	}

	/** {@code times} calls of {@code operation}, one after the other, on this thread. */
	public static Result sequence(int times, Operation operation) {
		Tally tally = new Tally();
		for (int index = 0; index < times && !tally.finished.get(); index++) {
			tally.call(operation, new Call(index, true, tally, System.nanoTime()));
		}
		return tally.result();
	}

	/** A run's counters, shared by its threads. */
	private static final class Tally {

		private final Recorder latency = new Recorder(3);

		private final AtomicLong operations = new AtomicLong();

		private final AtomicLong errors = new AtomicLong();

		private final Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();

		private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

		private final AtomicBoolean finished = new AtomicBoolean();

		private volatile long startedNanos = System.nanoTime();

		void call(Operation operation, Call call) {
			try {
				operation.run(call);
				if (call.none) {
					return;
				}
				long stop = (call.stopNanos != 0) ? call.stopNanos : System.nanoTime();
				this.latency.recordValue(Math.max(1, (stop - call.startNanos) / 1_000));
				this.operations.incrementAndGet();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.finished.set(true);
			}
			catch (Exception ex) {
				String kind = Objects.requireNonNullElse(ex.getMessage(), ex.getClass().getName());
				this.errorKinds.computeIfAbsent(kind, (key) -> new LongAdder()).increment();
				if (this.errors.incrementAndGet() <= ERRORS_SHOWN) {
					System.err.println("error: " + ex);
				}
			}
		}

		Result result() {
			double seconds = (System.nanoTime() - this.startedNanos) / 1e9;
			return new Result(this.operations.get(), this.errors.get(), snapshot(this.errorKinds),
					snapshot(this.counts), seconds, this.latency.getIntervalHistogram());
		}

		private static Map<String, Long> snapshot(Map<String, LongAdder> adders) {
			Map<String, Long> values = new TreeMap<>();
			adders.forEach((name, adder) -> values.put(name, adder.sum()));
			return Collections.unmodifiableMap(values);
		}

	}

}
