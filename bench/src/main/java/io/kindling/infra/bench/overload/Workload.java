package io.kindling.infra.bench.overload;

import java.io.IOException;

import io.kindling.infra.http.ServiceClient;

/**
 * One kind of call the bench overloads. Every call has its own index, from a counter the
 * phases share, and with it its own people: no two calls touch the same user or session,
 * so afterwards each call's answer can be held to what the database holds.
 */
interface Workload {

	/** The call's name in the table: {@code swipes}, {@code room joins}. */
	String name();

	/** Makes ready the people of the calls below {@code calls} (profiles, sessions). */
	void prepare(int calls) throws Exception;

	/**
	 * Makes call {@code index} on the instance {@code http} reaches: true when it was
	 * done, false when it was refused with {@code 503 overloaded}; anything else throws.
	 */
	boolean call(ServiceClient http, int index) throws IOException;

	/** Holds every answer to the database, once the load is over. */
	Check check() throws Exception;

	/**
	 * What the answers and the database say together.
	 *
	 * @param done calls answered as done
	 * @param refused calls refused with {@code 503 overloaded}
	 * @param failed calls that failed otherwise (a time-out, another status): their
	 * outcome is unknown, and the checks leave them out
	 * @param facts what {@code lost} and {@code doubled} count: matches, rooms
	 * @param lost facts a done call was told of that the database does not hold
	 * @param doubled facts held twice (a second match for a pair, a session in two rooms)
	 * @param refusedButDone refused calls that left something behind
	 */
	record Check(long done, long refused, long failed, String facts, long lost, long doubled, long refusedButDone) {

		boolean clean() {
			return this.lost == 0 && this.doubled == 0 && this.refusedButDone == 0;
		}

	}

}
