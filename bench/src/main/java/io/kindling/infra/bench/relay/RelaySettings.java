package io.kindling.infra.bench.relay;

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
 */
record RelaySettings(int batchSize, int workersPerSource) {

	private static final String PREFIX = "kindling.relay";

	static RelaySettings of(ServiceClient relay) {
		Response response = relay.get("/actuator/configprops/" + PREFIX, null);
		if (response.status() != 200) {
			throw new IllegalStateException("the relay's configprops answered " + response.status());
		}
		JsonNode properties = properties(response.json());
		return new RelaySettings(properties.required("batchSize").asInt(),
				properties.required("workersPerSource").asInt());
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
