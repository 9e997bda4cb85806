package io.kindling.swipe.security;

import io.kindling.support.web.Refusal;

import org.springframework.http.HttpStatus;

/** The refusal of every call of a banned user. */
enum SuspensionRefusals implements Refusal {

	/** The caller is banned, while the ban is in force. */
	ACCOUNT_SUSPENDED("account-suspended", HttpStatus.FORBIDDEN, "Account suspended");

	private final Type type;

	SuspensionRefusals(String slug, HttpStatus status, String title) {
		this.type = new Type(slug, status, title);
	}

	@Override
	public Type type() {
		return this.type;
	}

}
