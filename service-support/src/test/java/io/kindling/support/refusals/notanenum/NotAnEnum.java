package io.kindling.support.refusals.notanenum;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** A refusal as a class: its instances could not be found, so it is refused. */
final class NotAnEnum implements Refusal {

	@Override
	public Type type() {
		return new Type("not-an-enum", HttpStatus.BAD_REQUEST, "Not an enum");
	}

}
