package io.kindling.webclient.ops;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kindling.webclient.WebClientProperties;
import tools.jackson.databind.JsonNode;

import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;
import org.springframework.web.util.UriComponentsBuilder;

/** Prometheus's HTTP API, as the console reads it: range queries and the alerts. */
@Component
class Prometheus {

	private final RestClient http;

	private final URI base;

	Prometheus(WebClientProperties properties) {
		SimpleClientHttpRequestFactory requests = new SimpleClientHttpRequestFactory();
		requests.setConnectTimeout(Duration.ofSeconds(2));
		requests.setReadTimeout(Duration.ofSeconds(10));
		this.http = RestClient.builder().requestFactory(requests).build();
		this.base = properties.prometheusUrl();
	}

	/**
	 * Each series the query answers between {@code start} and {@code end}, one value per
	 * {@code step} (null where it has none).
	 */
	List<Series> range(String query, Instant start, Instant end, Duration step) {
		URI uri = UriComponentsBuilder.fromUri(this.base)
			.path("/api/v1/query_range")
			// a variable, so that the braces and quotes of PromQL are encoded as a value
			.queryParam("query", "{query}")
			.queryParam("start", start.getEpochSecond())
			.queryParam("end", end.getEpochSecond())
			.queryParam("step", step.toSeconds())
			.encode()
			.buildAndExpand(query)
			.toUri();
		JsonNode answer = this.http.get().uri(uri).retrieve().body(JsonNode.class);
		List<Series> series = new ArrayList<>();
		for (JsonNode result : answer.get("data").get("result")) {
			Map<String, String> labels = new LinkedHashMap<>();
			result.get("metric")
				.properties()
				.forEach((label) -> labels.put(label.getKey(), label.getValue().asString()));
			Map<Long, Double> values = new LinkedHashMap<>();
			for (JsonNode point : result.get("values")) {
				double value = Double.parseDouble(point.get(1).asString());
				if (Double.isFinite(value)) {
					values.put(point.get(0).asLong(), value);
				}
			}
			series.add(new Series(labels, values));
		}
		return series;
	}

	/** The alerts pending or firing now. */
	JsonNode alerts() {
		return this.http.get()
			.uri(UriComponentsBuilder.fromUri(this.base).path("/api/v1/alerts").build().toUri())
			.retrieve()
			.body(JsonNode.class)
			.get("data")
			.get("alerts");
	}

	/**
	 * @param values by the epoch second of each point
	 */
	record Series(Map<String, String> labels, Map<Long, Double> values) {

	}

}
