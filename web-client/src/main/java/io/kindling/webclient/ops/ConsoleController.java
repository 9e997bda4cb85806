package io.kindling.webclient.ops;

import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Problems;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import org.springframework.http.CacheControl;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClientException;

/** The console's API: charts and alerts, read from Prometheus. */
@RestController
class ConsoleController {

	private static final Logger log = LoggerFactory.getLogger(ConsoleController.class);

	private final Console console;

	ConsoleController(Console console) {
		this.console = console;
	}

	/** Every chart of the last hour, one point a minute. */
	@GetMapping("/ops/api/charts")
	ResponseEntity<Console.Charts> charts() {
		return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(this.console.charts());
	}

	/** The alerts pending or firing now, as Prometheus lists them. */
	@GetMapping("/ops/api/alerts")
	ResponseEntity<JsonNode> alerts() {
		return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(this.console.alerts());
	}

	/**
	 * Prometheus did not answer, or answered an error: the page says so and tries again.
	 */
	@ExceptionHandler(RestClientException.class)
	ResponseEntity<ProblemDetail> prometheusAway(RestClientException ex) {
		log.warn("Prometheus did not answer the console: {}", ex.toString());
		return Problems.answer(ProblemType.UNAVAILABLE, "Prometheus did not answer; is it running?",
				Problems.retryAfter(5));
	}

}
