package io.kindling.webclient;

import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ClientConfigController {

	private final ClientConfig config;

	ClientConfigController(WebClientProperties properties) {
		this.config = new ClientConfig(strip(properties.matchingUrl().toString()),
				strip(properties.swipeUrl().toString()));
	}

	/** What the page reads first: the services' base URLs. Nothing secret. */
	@GetMapping("/config.json")
	ResponseEntity<ClientConfig> config() {
		// a restarted stack may move the services: never let a browser keep an old answer
		return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(this.config);
	}

	private static String strip(String url) {
		return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
	}

	record ClientConfig(String matchingUrl, String swipeUrl) {

	}

}
