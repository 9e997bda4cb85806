package io.kindling.swipe.security;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import io.kindling.push.StreamTickets;

import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates {@code GET /api/events?ticket=…} by its stream ticket, for a browser's
 * {@code EventSource}, which cannot send the bearer JWT. The ticket is spent here; one
 * that is unknown, used or expired gets 401. Nothing else can be opened with a ticket.
 */
final class StreamTicketFilter extends OncePerRequestFilter {

	private static final RequestMatcher EVENTS = PathPatternRequestMatcher.withDefaults()
		.matcher(HttpMethod.GET, "/api/events");

	private final StreamTickets tickets;

	private final AuthenticationEntryPoint refused;

	private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

	// where the bearer filter keeps its context too: the stream's async dispatches find
	// it
	private final SecurityContextRepository repository = new RequestAttributeSecurityContextRepository();

	StreamTicketFilter(StreamTickets tickets, AuthenticationEntryPoint refused) {
		this.tickets = tickets;
		this.refused = refused;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return request.getParameter(StreamTickets.PARAMETER) == null || !EVENTS.matches(request);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		Optional<String> userId = this.tickets.redeem(request.getParameter(StreamTickets.PARAMETER));
		if (userId.isEmpty()) {
			this.contexts.clearContext();
			this.refused.commence(request, response,
					new BadCredentialsException("the stream ticket is unknown, used or expired"));
			return;
		}
		SecurityContext context = this.contexts.createEmptyContext();
		context.setAuthentication(UsernamePasswordAuthenticationToken
			.authenticated(new TicketHolder(Long.parseLong(userId.get())), null, List.of()));
		this.contexts.setContext(context);
		this.repository.saveContext(context, request, response);
		chain.doFilter(request, response);
	}

	/** The principal of a request opened with a ticket: the user it was issued to. */
	record TicketHolder(long userId) {

	}

}
