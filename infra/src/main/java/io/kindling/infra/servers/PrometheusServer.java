package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real Prometheus (Debian's {@code prometheus} package) on a loopback port, with the
 * configuration a test gives it (its scrape targets and rule files), storing in its work
 * directory. Its HTTP API tells the test what it scraped and which alerts fire.
 */
public final class PrometheusServer extends ServerProcess {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final int port;

	private final String configuration;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	/**
	 * @param configuration the whole {@code prometheus.yml}
	 */
	public PrometheusServer(Path workDir, int port, String configuration) {
		super("prometheus", workDir);
		this.port = port;
		this.configuration = configuration;
	}

	public int port() {
		return this.port;
	}

	@Override
	protected void prepare() {
		try {
			Files.writeString(this.workDir.resolve("prometheus.yml"), this.configuration);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		run(List.of("promtool", "check", "config", this.workDir.resolve("prometheus.yml").toString()), logFile());
	}

	@Override
	protected List<String> command() {
		return List.of("prometheus", "--config.file=" + this.workDir.resolve("prometheus.yml"),
				"--storage.tsdb.path=" + this.workDir.resolve("data"), "--web.listen-address=127.0.0.1:" + this.port);
	}

	@Override
	protected void awaitReady() {
		awaitWhileRunning("prometheus on port " + this.port, Duration.ofSeconds(30), () -> {
			try {
				return get("/-/ready").statusCode() == 200;
			}
			catch (UncheckedIOException ex) {
				return false;
			}
		});
	}

	/**
	 * The alerts in that state ({@code pending} or {@code firing}) now, with their
	 * labels.
	 */
	public List<Map<String, String>> alerts(String state) {
		JsonNode body = JSON.readTree(get("/api/v1/alerts").body());
		List<Map<String, String>> alerts = new ArrayList<>();
		for (JsonNode alert : body.get("data").get("alerts")) {
			if (state.equals(alert.get("state").asString())) {
				alerts.add(JSON.convertValue(alert.get("labels"),
						JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class)));
			}
		}
		return alerts;
	}

	/** The values of an instant query now, one per series, by their labels. */
	public List<Sample> query(String promql) {
		JsonNode body = JSON
			.readTree(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).body());
		List<Sample> samples = new ArrayList<>();
		for (JsonNode result : body.get("data").get("result")) {
			samples.add(new Sample(
					JSON.convertValue(result.get("metric"),
							JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class)),
					Double.parseDouble(result.get("value").get(1).asString())));
		}
		return samples;
	}

	/** Each scrape target's health and last error, for a test's failure message. */
	public List<String> targets() {
		List<String> targets = new ArrayList<>();
		for (JsonNode target : JSON.readTree(get("/api/v1/targets").body()).get("data").get("activeTargets")) {
			targets.add(target.get("scrapeUrl").asString() + " " + target.get("health").asString() + " "
					+ target.get("lastError").asString());
		}
		return targets;
	}

	private HttpResponse<String> get(String path) {
		try {
			return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
				.timeout(Duration.ofSeconds(5))
				.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** One series of a query's answer. */
	public record Sample(Map<String, String> labels, double value) {

	}

}
