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
 */
@ConfigurationProperties("kindling.web")
public record WebEdgeProperties(@DefaultValue("16KB") DataSize maxBodySize, @DefaultValue( {
	}) List<String> allowedOrigins){

	public WebEdgeProperties {
		if (maxBodySize.toBytes() < 1) {
			throw new IllegalArgumentException("kindling.web.max-body-size must be positive, was " + maxBodySize);
		}
		// an empty @DefaultValue may bind as no list at all
		allowedOrigins = (allowedOrigins != null) ? List.copyOf(allowedOrigins) : List.of();
	}

}
