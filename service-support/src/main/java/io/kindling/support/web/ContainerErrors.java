package io.kindling.support.web;

/** What to tell a caller about a refusal that the container or a filter made. */
final class ContainerErrors {

	private ContainerErrors() {
	}

	static String detail(ProblemType type) {
		return switch (type) {
			case BAD_REQUEST -> "the request line, the URL or a header is malformed (bad percent-encoding, "
					+ "control characters, headers too large, or a header the server does not accept)";
			case NOT_FOUND -> "no such resource";
			case METHOD_NOT_ALLOWED -> "this resource does not take that method";
			case CONTENT_TOO_LARGE -> "the request body is too large";
			case UNAUTHENTICATED -> "credentials are required";
			case UNAVAILABLE -> "a backing store did not answer; retrying the same request is safe";
			default ->
				(type.status().is5xxServerError()) ? "the request could not be completed" : "the request was refused";
		};
	}

}
