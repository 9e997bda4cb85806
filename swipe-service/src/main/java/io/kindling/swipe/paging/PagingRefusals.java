package io.kindling.swipe.paging;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The refusal of a page asked for with a cursor no page gave. */
public enum PagingRefusals implements Refusal {

	BAD_CURSOR("bad-cursor", HttpStatus.BAD_REQUEST, "Bad cursor");

	private final Type type;

	PagingRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
