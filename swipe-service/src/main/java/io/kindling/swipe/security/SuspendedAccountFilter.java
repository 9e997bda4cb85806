package io.kindling.swipe.security;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import io.kindling.support.web.Problems;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses every call of a banned user, once the JWT or the stream ticket said who it is:
 * {@code 403 account-suspended}.
 */
final class SuspendedAccountFilter extends OncePerRequestFilter {

	private final Suspensions suspensions;

	private final JsonMapper json;

	SuspendedAccountFilter(Suspensions suspensions, JsonMapper json) {
		this.suspensions = suspensions;
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Optional<Suspensions.Suspension> suspension = user().flatMap(this.suspensions::of);
		if (suspension.isPresent()) {
			Instant endsAt = suspension.get().endsAt();
			Problems.write(response, this.json, Problems.of(SuspensionRefusals.ACCOUNT_SUSPENDED,
					"This account is suspended" + ((endsAt != null) ? " until " + endsAt : "") + "."));
			return;
		}
		chain.doFilter(request, response);
	}

	private static Optional<Long> user() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication == null || !authentication.isAuthenticated()) {
			return Optional.empty();
		}
		return switch (authentication.getPrincipal()) {
			case Jwt jwt -> Optional.of(CurrentUser.id(jwt));
			case StreamTicketFilter.TicketHolder holder -> Optional.of(holder.userId());
			case null, default -> Optional.empty();
		};
	}

}
