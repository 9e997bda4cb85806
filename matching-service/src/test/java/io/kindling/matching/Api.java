package io.kindling.matching;

import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rooms API of one instance of the service, called over plain HTTP as a client would.
 */
public final class Api {

	public static final JsonMapper JSON = JsonMapper.builder().build();

	private final ServiceClient http;

	public Api(int port) {
		this(new ServiceClient(port));
	}

	public Api(ServiceClient http) {
		this.http = http;
	}

	/** The client underneath, for requests the helpers here do not make. */
	public ServiceClient http() {
		return this.http;
	}

	public Response send(String method, String path, @Nullable String token, @Nullable String body, String... headers) {
		return this.http.send(method, path, token, body, headers);
	}

	public String session() {
		Response response = send("POST", "/api/sessions", null, null);
		assertThat(response.status()).as(response.body()).isEqualTo(201);
		return response.json().get("token").asString();
	}

	public Response join(String token, long topicId, int size) {
		return send("POST", "/api/matching", token, "{\"topic_id\": " + topicId + ", \"size\": " + size + "}");
	}

	public Response status(String token) {
		return send("GET", "/api/matching", token, null);
	}

	public Response leave(String token) {
		return send("DELETE", "/api/matching", token, null);
	}

}
