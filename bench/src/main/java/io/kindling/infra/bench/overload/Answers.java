package io.kindling.infra.bench.overload;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kindling.infra.http.Response;

/**
 * What each call was answered, by its index, and the one fact it was told of (a match id,
 * a conversation id), for the checks after the load. Written by the calls' threads, read
 * once the load is over.
 */
final class Answers {

	enum State {

		/** Never made. */
		NONE,

		/** Made, with no answer that says what happened (a time-out, another status). */
		FAILED,

		DONE,

		/** {@code 503 overloaded}: nothing was done. */
		REFUSED

	}

	private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\":\"[^\"]*/problems/([a-z-]+)\"");

	private static final State[] STATES = State.values();

	private final byte[] states;

	private final long[] facts;

	private final AtomicInteger calls = new AtomicInteger();

	Answers(int capacity) {
		this.states = new byte[capacity];
		this.facts = new long[capacity];
	}

	int capacity() {
		return this.states.length;
	}

	/** How many calls were made: one past the highest index. */
	int calls() {
		return this.calls.get();
	}

	/**
	 * Takes the answer to call {@code index}: true for a 2xx (whose fact is read then),
	 * false for {@code 503 overloaded}; any other answer throws, naming its status and
	 * problem type.
	 */
	boolean record(int index, Response answer, LongSupplier fact) throws IOException {
		if (answer.status() / 100 == 2) {
			this.facts[index] = fact.getAsLong();
			this.states[index] = (byte) State.DONE.ordinal();
			return true;
		}
		Matcher type = PROBLEM_TYPE.matcher(answer.body());
		String problem = type.find() ? type.group(1) : "";
		if (answer.status() == 503 && problem.equals("overloaded")) {
			this.states[index] = (byte) State.REFUSED.ordinal();
			return false;
		}
		throw new IOException("HTTP " + answer.status() + " " + problem);
	}

	/** Marks call {@code index} made, its outcome unknown until {@link #record}. */
	void begin(int index) {
		this.states[index] = (byte) State.FAILED.ordinal();
		this.calls.accumulateAndGet(index + 1, Math::max);
	}

	State state(int index) {
		return STATES[this.states[index]];
	}

	long fact(int index) {
		return this.facts[index];
	}

	Workload.Check check(String facts, long lost, long doubled, long refusedButDone) {
		long[] byState = new long[STATES.length];
		for (int index = 0; index < calls(); index++) {
			byState[this.states[index]]++;
		}
		return new Workload.Check(byState[State.DONE.ordinal()], byState[State.REFUSED.ordinal()],
				byState[State.FAILED.ordinal()], facts, lost, doubled, refusedButDone);
	}

}
