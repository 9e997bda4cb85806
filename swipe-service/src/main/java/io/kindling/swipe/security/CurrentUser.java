package io.kindling.swipe.security;

import org.springframework.security.oauth2.jwt.Jwt;

/** The signed-in user: the token's {@code sub}, validated as numeric by the decoder. */
public final class CurrentUser {

	private CurrentUser() {
	}

	public static long id(Jwt jwt) {
		return Long.parseLong(jwt.getSubject());
	}

}
