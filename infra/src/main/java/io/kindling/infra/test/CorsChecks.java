package io.kindling.infra.test;

import java.util.Locale;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;

/** What a browser checks of the CORS answers of a service, for the tests of each. */
public final class CorsChecks {

	private CorsChecks() {
	}

	/**
	 * The preflight a browser sends before a cross-origin call.
	 * @param requestHeaders the call's own headers, comma separated, lower case
	 */
	public static Request preflight(String path, String origin, String method, String requestHeaders) {
		return Request.of("OPTIONS", path)
			.header("Origin", origin)
			.header("Access-Control-Request-Method", method)
			.header("Access-Control-Request-Headers", requestHeaders);
	}

	/**
	 * @throws AssertionError unless the preflight lets a page of the origin make the call
	 * with those headers, without credentials
	 */
	public static void assertPreflightAllowed(Response response, String origin, String method, String requestHeaders) {
		check(response.status() == 200, "a preflight answered 200", response);
		assertAllowed(response, origin);
		String methods = response.header("Access-Control-Allow-Methods").orElse("");
		check(methods.contains(method), "Access-Control-Allow-Methods with " + method, response);
		String headers = response.header("Access-Control-Allow-Headers").orElse("").toLowerCase(Locale.ROOT);
		for (String header : requestHeaders.split(",")) {
			check(headers.contains(header.strip()), "Access-Control-Allow-Headers with " + header, response);
		}
	}

	/**
	 * @throws AssertionError unless a page of the origin may read the answer, without
	 * credentials
	 */
	public static void assertAllowed(Response response, String origin) {
		check(origin.equals(response.header("Access-Control-Allow-Origin").orElse(null)),
				"Access-Control-Allow-Origin: " + origin, response);
		check(response.header("Access-Control-Allow-Credentials").isEmpty(), "no Access-Control-Allow-Credentials",
				response);
	}

	/**
	 * @throws AssertionError unless the answer is a 403 {@code origin-not-allowed}
	 * problem without the headers a page would need to read it
	 */
	public static void assertRefused(Response response) {
		check(response.status() == 403, "403", response);
		check(response.header("Content-Type").orElse("").startsWith("application/problem+json"), "a problem detail",
				response);
		check("https://kindling.io/problems/origin-not-allowed".equals(response.field("type")),
				"type origin-not-allowed", response);
		check(response.header("Access-Control-Allow-Origin").isEmpty(), "no Access-Control-Allow-Origin", response);
	}

	private static void check(boolean holds, String expected, Response response) {
		if (!holds) {
			throw new AssertionError("expected " + expected + ", got " + response.status() + " " + response.headers()
					+ " " + response.body());
		}
	}

}
