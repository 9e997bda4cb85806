package io.kindling.infra.bench.relay;

import java.time.Duration;

import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import tools.jackson.databind.JsonNode;

/**
 * The settings a running relay bound, read from its {@code /actuator/configprops}: its
 * defaults, its {@code application.yml} and the command line, as Spring resolved them
 * (the relay must expose the endpoint with its values shown).
 *
 * @param batchSize {@code kindling.relay.batch-size}
 * @param workersPerSource {@code kindling.relay.workers-per-source}
 * @param maxInterval {@code kindling.relay.polling.max-interval}: how often an idle relay
 * probes each source
 */
record RelaySettings(int batchSize, int workersPerSource, Duration maxInterval) {

	private static final String PREFIX = "kindling.relay";

	static RelaySettings of(ServiceClient relay, String metricsToken) {
		Response response = relay.get("/actuator/configprops/" + PREFIX, metricsToken);
		if (response.status() != 200) {
			throw new IllegalStateException("the relay's configprops answered " + response.status());
		}
		JsonNode properties = properties(response.json());
		return new RelaySettings(properties.required("batchSize").asInt(),
				properties.required("workersPerSource").asInt(),
				duration(properties.required("polling").required("maxInterval")));
	}

	/**
	 * A duration as the endpoint writes it: ISO-8601 text, or a number of seconds.
	 */
	static Duration duration(JsonNode value) {
		if (value.isNumber()) {
			return Duration.ofNanos(Math.round(value.asDouble() * 1e9));
		}
		return Duration.parse(value.asString());
	}

	/**
	 * The bound properties of the bean with the prefix, in whichever context holds it.
	 */
	private static JsonNode properties(JsonNode configprops) {
		for (JsonNode context : configprops.required("contexts")) {
			for (JsonNode bean : context.required("beans")) {
				if (PREFIX.equals(bean.path("prefix").asString())) {
					return bean.required("properties");
				}
			}
		}
		throw new IllegalStateException("no " + PREFIX + " properties in the relay's configprops");
	}

}
