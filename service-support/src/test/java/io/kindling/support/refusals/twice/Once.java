package io.kindling.support.refusals.twice;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** A refusal, declared here first. */
enum Once implements Refusal {

	ALREADY_DONE;

	@Override
	public Type type() {
		return new Type("already-done", HttpStatus.CONFLICT, "Already done");
	}

}
