package io.kindling.swipe.security;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.kindling.support.web.BearerToken;

import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code /api/admin/**} by {@code kindling.swipe.admin-token}, sent as
 * {@code Authorization: Bearer <token>}, as an {@link Operator}. While no token is set
 * the whole API answers 401, as matching-service's and the relay's do. A user's JWT opens
 * nothing here.
 */
final class AdminTokenFilter extends OncePerRequestFilter {

	private final BearerToken token;

	private final Operator operator;

	private final AuthenticationEntryPoint refused;

	private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

	AdminTokenFilter(String token, AuthenticationEntryPoint refused) {
		this.token = new BearerToken(token,
				new BearerToken.Refusals("The admin API is off: no kindling.swipe.admin-token is set.",
						"Send the admin token as 'Authorization: Bearer <token>'.", "The admin token is not right."));
		this.operator = Operator.holding(token);
		this.refused = refused;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String refusal = this.token.refusal(request);
		if (refusal != null) {
			this.contexts.clearContext();
			this.refused.commence(request, response, new BadCredentialsException(refusal));
			return;
		}
		SecurityContext context = this.contexts.createEmptyContext();
		context.setAuthentication(UsernamePasswordAuthenticationToken.authenticated(this.operator, null, List.of()));
		this.contexts.setContext(context);
		chain.doFilter(request, response);
	}

}
