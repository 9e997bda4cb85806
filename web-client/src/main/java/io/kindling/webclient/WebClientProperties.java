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
 */
@ConfigurationProperties("kindling.web-client")
record WebClientProperties(@DefaultValue("http://127.0.0.1:8081") URI matchingUrl,
		@DefaultValue("http://127.0.0.1:8082") URI swipeUrl) {

	WebClientProperties {
		for (URI url : new URI[] { matchingUrl, swipeUrl }) {
			if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
				throw new IllegalArgumentException("kindling.web-client URLs must be http or https, was " + url);
			}
		}
	}

}
