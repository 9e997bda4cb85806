package io.kindling.support.web;

import java.net.URI;
import java.time.Duration;

import org.springframework.http.HttpStatus;

/**
 * A way a request is refused, declared once where its feature lives, as a constant of an
 * enum that implements this: the problem type's slug, its one status and its title. The
 * web edge answers a thrown {@link Refused} as its problem detail, the OpenAPI
 * description of a handler lists the slugs in its {@link Refuses}, and docs/errors.md is
 * checked against the declarations.
 */
public interface Refusal {

	/** Every problem type is this plus its slug. */
	String BASE = "https://kindling.io/problems/";

	/** The slug, status and title, as the constant declares them. */
	Type type();

	default String slug() {
		return type().slug();
	}

	default HttpStatus status() {
		return type().status();
	}

	default String title() {
		return type().title();
	}

	/** The problem detail's {@code type}. */
	default URI uri() {
		return type().uri();
	}

	/** The exception to throw, with the words the caller reads. */
	default Refused refused(String detail) {
		return new Refused(this, detail, null);
	}

	/**
	 * The same, answered with {@code Retry-After}: the wait in whole seconds, rounded up,
	 * at least one.
	 */
	default Refused refused(String detail, Duration retryAfter) {
		return new Refused(this, detail, retryAfter);
	}

	/**
	 * A problem type: {@code slug} names it in {@code type} and in docs/errors.md,
	 * {@code status} is its only status, {@code title} its words.
	 */
	record Type(String slug, HttpStatus status, String title) {

		public URI uri() {
			return URI.create(BASE + this.slug);
		}

	}

}
