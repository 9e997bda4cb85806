package io.kindling.support.web;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The client's address, as rate limits and bans see it ({@code getRemoteAddr()}): the
 * peer's, unless the peer is one of {@code kindling.web.trusted-proxies}. Only then is
 * {@code X-Forwarded-For} believed, read from the right, hop by hop, up to the first
 * address that is not a trusted proxy. So a client that reaches an instance directly
 * cannot choose its address with the header, and behind a balancer a client cannot
 * either: the balancer appends the address it saw.
 */
final class ClientAddresses extends OncePerRequestFilter {

	static final String FORWARDED_FOR = "X-Forwarded-For";

	private final List<Cidr> trusted;

	ClientAddresses(List<Cidr> trusted) {
		this.trusted = List.copyOf(trusted);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (this.trusted.isEmpty() || !isTrusted(request.getRemoteAddr())) {
			chain.doFilter(request, response);
			return;
		}
		String client = client(request.getRemoteAddr(), Collections.list(request.getHeaders(FORWARDED_FOR)));
		chain.doFilter(new HttpServletRequestWrapper(request) {

			@Override
			public String getRemoteAddr() {
				return client;
			}

			@Override
			public String getRemoteHost() {
				return client;
			}

		}, response);
	}

	/**
	 * The client behind a trusted peer: the right-most forwarded address that is not a
	 * trusted proxy; the left-most if all are; the peer itself when the header is missing
	 * or names something that is not an address.
	 */
	String client(String peer, List<String> forwardedFor) {
		List<String> hops = new ArrayList<>();
		for (String line : forwardedFor) {
			for (String hop : line.split(",")) {
				hops.add(hop.strip());
			}
		}
		String client = peer;
		for (int i = hops.size() - 1; i >= 0; i--) {
			Optional<InetAddress> address = Cidr.literal(hops.get(i));
			if (address.isEmpty()) {
				return client;
			}
			client = address.get().getHostAddress();
			if (!isTrusted(address.get())) {
				return client;
			}
		}
		return client;
	}

	private boolean isTrusted(String address) {
		return Cidr.literal(address).map(this::isTrusted).orElse(false);
	}

	private boolean isTrusted(InetAddress address) {
		for (Cidr block : this.trusted) {
			if (block.contains(address)) {
				return true;
			}
		}
		return false;
	}

}
