package io.kindling.webclient;

import java.net.URI;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the page finds the services ({@code kindling.web-client.*}). Each service must
 * list this server's origin in its {@code kindling.web.allowed-origins}, as
 * {@code ./kindling up} does.
 *
 * @param matchingUrl matching-service's base URL, as a browser reaches it
 * @param swipeUrl swipe-service's base URL, as a browser reaches it
 * @param prometheusUrl where this server reads the operators' console's charts and alerts
 * (the browser never calls Prometheus)
 * @param adminToken the operators' token the console's calls to this server must carry;
 * while empty the console's API answers 401 to everyone
 */
@ConfigurationProperties("kindling.web-client")
public record WebClientProperties(@DefaultValue("http://127.0.0.1:8081") URI matchingUrl,
		@DefaultValue("http://127.0.0.1:8082") URI swipeUrl, @DefaultValue("http://127.0.0.1:9090") URI prometheusUrl,
		@DefaultValue("") String adminToken) {

	public WebClientProperties {
		for (URI url : new URI[] { matchingUrl, swipeUrl, prometheusUrl }) {
			if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
				throw new IllegalArgumentException("kindling.web-client URLs must be http or https, was " + url);
			}
		}
	}

}
