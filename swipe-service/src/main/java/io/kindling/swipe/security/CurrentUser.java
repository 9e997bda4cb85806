package io.kindling.swipe.security;

import org.springframework.security.oauth2.jwt.Jwt;

/**
 * The signed-in user: the token's {@code sub}, validated as numeric by the decoder, or
 * the user a stream ticket was issued to.
 */
public final class CurrentUser {

	private CurrentUser() {
	}

	public static long id(Jwt jwt) {
		return Long.parseLong(jwt.getSubject());
	}

	/**
	 * The user of a request authenticated by a bearer JWT or by a stream ticket, from its
	 * {@code @AuthenticationPrincipal}.
	 */
	public static long ofPrincipal(Object principal) {
		return switch (principal) {
			case Jwt jwt -> id(jwt);
			case StreamTicketFilter.TicketHolder holder -> holder.userId();
			default -> throw new IllegalStateException("not a user of this service: " + principal);
		};
	}

}
