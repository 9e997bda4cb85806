package io.kindling.webclient;

import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The server hands out the page and the services' addresses, issues nothing else (no
 * tokens), and answers what it does not have as a problem detail, never an HTML page.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "kindling.web-client.matching-url=https://rooms.example.com/",
				"kindling.web-client.swipe-url=http://127.0.0.1:9082", "kindling.web-client.admin-token=ops-token",
				// nothing listens there
				"kindling.web-client.prometheus-url=http://127.0.0.1:9" })
class WebClientServerTests {

	@LocalServerPort
	int port;

	@Test
	void configTellsThePageWhereTheServicesAreAndIsNeverCached() {
		Response config = new ServiceClient(this.port).get("/config.json", null);

		assertThat(config.status()).isEqualTo(200);
		assertThat(config.field("matching_url")).isEqualTo("https://rooms.example.com");
		assertThat(config.field("swipe_url")).isEqualTo("http://127.0.0.1:9082");
		assertThat(config.header("Cache-Control")).hasValue("no-store");
	}

	@Test
	void thePageAndItsModulesAreServed() {
		ServiceClient client = new ServiceClient(this.port);

		Response page = client.get("/", null);
		assertThat(page.status()).isEqualTo(200);
		assertThat(page.body()).contains("<script type=\"module\" src=\"js/main.js\">");
		for (String module : new String[] { "main", "api", "stream", "rooms", "swipes", "ui" }) {
			Response script = client.get("/js/" + module + ".js", null);
			assertThat(script.status()).as(module).isEqualTo(200);
			assertThat(script.header("Content-Type").orElseThrow()).as(module).contains("javascript");
		}
	}

	@Test
	void theConsoleAndItsChartLibraryAreServedFromThisServer() {
		ServiceClient client = new ServiceClient(this.port);

		Response page = client.get("/ops", null);
		assertThat(page.status()).isEqualTo(200);
		assertThat(page.body()).contains("<script type=\"module\" src=\"/js/ops.js\">");
		assertThat(client.get("/js/ops.js", null).body()).contains("from '/webjars/uplot/dist/uPlot.esm.js'");
		Response uplot = client.get("/webjars/uplot/dist/uPlot.esm.js", null);
		assertThat(uplot.status()).isEqualTo(200);
		assertThat(uplot.body()).contains("export { uPlot as default }");
		assertThat(client.get("/webjars/uplot/dist/uPlot.min.css", null).status()).isEqualTo(200);
	}

	@Test
	void theConsolesApiTakesTheOperatorsTokenAndSaysWhenPrometheusIsAway() {
		ServiceClient client = new ServiceClient(this.port);

		for (String token : new String[] { null, "not-the-token" }) {
			Response refused = client.get("/ops/api/charts", token);
			assertThat(refused.status()).isEqualTo(401);
			assertThat(refused.field("type")).isEqualTo("https://kindling.io/problems/unauthenticated");
		}
		Response away = client.get("/ops/api/charts", "ops-token");
		assertThat(away.status()).isEqualTo(503);
		assertThat(away.field("type")).isEqualTo("https://kindling.io/problems/unavailable");
		assertThat(away.header("Retry-After")).isPresent();
		assertThat(client.get("/ops/api/alerts", "ops-token").status()).isEqualTo(503);
	}

	@Test
	void whatItDoesNotHaveIsAProblemDetail() {
		Response missing = new ServiceClient(this.port).get("/api/token", null);

		assertThat(missing.status()).isEqualTo(404);
		assertThat(missing.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
	}

}
