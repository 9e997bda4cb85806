package io.kindling.support.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings of the web edge every service shares ({@code kindling.web.*}).
 *
 * @param maxBodySize larger request bodies are refused with 413, declared or chunked
 */
@ConfigurationProperties("kindling.web")
public record WebEdgeProperties(@DefaultValue("16KB") DataSize maxBodySize) {

	public WebEdgeProperties {
		if (maxBodySize.toBytes() < 1) {
			throw new IllegalArgumentException("kindling.web.max-body-size must be positive, was " + maxBodySize);
		}
	}

}
