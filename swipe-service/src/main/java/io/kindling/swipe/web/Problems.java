package io.kindling.swipe.web;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;

import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

/**
 * The service's problem details (RFC 9457: type, title, status, detail), built in one
 * place for the controller advice and for the filters that answer before Spring MVC.
 */
public final class Problems {

	private static final String TYPES = "https://kindling.io/problems/";

	private Problems() {
	}

	/**
	 * A problem whose {@code type} is named after its title: "Already swiped" is
	 * {@code https://kindling.io/problems/already-swiped}. Without one, Jackson leaves
	 * {@code type} out of the body altogether.
	 */
	public static ProblemDetail of(HttpStatus status, String title, @Nullable String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		problem.setType(type(title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "")));
		return problem;
	}

	/** Writes the problem as the whole response, for filters that answer on their own. */
	public static void write(HttpServletResponse response, JsonMapper json, ProblemDetail problem) throws IOException {
		response.setStatus(problem.getStatus());
		response.setCharacterEncoding("UTF-8");
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.getWriter().write(json.writeValueAsString(problem));
	}

	static URI type(String slug) {
		return URI.create(TYPES + slug);
	}

}
