package io.kindling.swipe.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
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

	private static final String BEARER = "Bearer ";

	private final byte[] token;

	private final Operator operator;

	private final AuthenticationEntryPoint refused;

	private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

	AdminTokenFilter(String token, AuthenticationEntryPoint refused) {
		this.token = token.getBytes(StandardCharsets.UTF_8);
		this.operator = Operator.holding(this.token);
		this.refused = refused;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		String refusal = refusal(request.getHeader(HttpHeaders.AUTHORIZATION));
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

	private String refusal(String header) {
		if (this.token.length == 0) {
			return "The admin API is off: no kindling.swipe.admin-token is set.";
		}
		if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return "Send the admin token as 'Authorization: Bearer <token>'.";
		}
		byte[] presented = header.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
		// constant time in the presented token: the answer must not tell how much of a
		// guess was right
		if (!MessageDigest.isEqual(this.token, presented)) {
			return "The admin token is not right.";
		}
		return null;
	}

}
