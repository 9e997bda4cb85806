package io.kindling.matching.session;

import java.util.List;

import io.kindling.push.StreamTickets;
import io.kindling.support.web.ProblemType;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.stereotype.Component;

/**
 * Gives a handler a {@link Session} parameter from {@code Authorization: Bearer <token>}
 * (or, where the parameter says {@link OrStreamTicket}, from {@code ?ticket=}), or
 * answers 401.
 */
@Component
class SessionArgumentResolver implements HandlerMethodArgumentResolver, WebMvcConfigurer {

	private static final String BEARER = "Bearer ";

	private final SessionService sessions;

	SessionArgumentResolver(SessionService sessions) {
		this.sessions = sessions;
	}

	@Override
	public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
		resolvers.add(this);
	}

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return parameter.getParameterType() == Session.class;
	}

	@Override
	public Session resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
			NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
		String ticket = webRequest.getParameter(StreamTickets.PARAMETER);
		if (ticket != null && parameter.hasParameterAnnotation(OrStreamTicket.class)) {
			return this.sessions.redeemTicket(ticket)
				.orElseThrow(() -> ProblemType.UNAUTHENTICATED.refused(
						"the stream ticket is unknown, used or expired: get a new one from POST /api/matching/events/tickets"));
		}
		String header = webRequest.getHeader(HttpHeaders.AUTHORIZATION);
		if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			throw ProblemType.UNAUTHENTICATED.refused("a session token is required: Authorization: Bearer <token>");
		}
		String token = header.substring(BEARER.length()).trim();
		return this.sessions.resolve(token)
			.orElseThrow(() -> ProblemType.UNAUTHENTICATED.refused("the session token is unknown or has expired"));
	}

}
