package io.kindling.support.refusals.twice;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The slug of another feature's refusal, declared again. */
enum Twice implements Refusal {

	DONE;

	@Override
	public Type type() {
		return new Type("already-done", HttpStatus.CONFLICT, "Already done");
	}

}
