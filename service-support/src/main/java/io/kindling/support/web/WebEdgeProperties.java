package io.kindling.support.web;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the web edge every service shares ({@code kindling.web.*}).
 *
 * @param maxBodySize larger request bodies are refused with 413, declared or chunked
 * @param allowedOrigins the origins whose pages may call the service from a browser
 * ({@code https://app.example.com}, or {@code *} for any); empty: the same origin only
 * @param trustedProxies the addresses or CIDR blocks of the proxies (load balancers)
 * whose {@code X-Forwarded-For} tells the client's address; empty: the peer's address is
 * the client's, whatever a header says
 * @param metricsToken what the actuator's endpoints other than health
 * ({@code prometheus}, {@code metrics}, {@code info}) take as
 * {@code Authorization: Bearer}; empty: they answer 401 to everyone
 */
@ConfigurationProperties("kindling.web")
public record WebEdgeProperties(@DefaultValue("16KB") DataSize maxBodySize, @DefaultValue( {
	}) List<String> allowedOrigins, @DefaultValue({}) List<String> trustedProxies,
		@DefaultValue("") String metricsToken){

	public WebEdgeProperties {
		if (maxBodySize.toBytes() < 1) {
			throw new IllegalArgumentException("kindling.web.max-body-size must be positive, was " + maxBodySize);
		}
		// an empty @DefaultValue may bind as no list at all
		allowedOrigins = (allowedOrigins != null) ? List.copyOf(allowedOrigins) : List.of();
		trustedProxies = (trustedProxies != null) ? List.copyOf(trustedProxies) : List.of();
		trustedProxyBlocks(trustedProxies);
	}

	/** {@link #trustedProxies} as blocks; a setting that is not one stops the start. */
	static List<Cidr> trustedProxyBlocks(List<String> trustedProxies) {
		try {
			return trustedProxies.stream().filter((proxy) -> !proxy.isBlank()).map(Cidr::parse).toList();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("kindling.web.trusted-proxies: " + ex.getMessage(), ex);
		}
	}

}
