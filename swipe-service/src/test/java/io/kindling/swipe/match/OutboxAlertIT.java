package io.kindling.swipe.match;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.PrometheusServer;
import io.kindling.support.web.WebEdgeProperties;
import io.kindling.infra.test.ApiContract;
import io.kindling.swipe.swipe.SwipeTestBase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repository's alert rules on a real Prometheus that scrapes this service: while the
 * relay keeps up, {@code KindlingOutboxBehind} is quiet; once it stops publishing and
 * matches are still written, the alert fires within two minutes.
 * <p>
 * The rule's own threshold (the oldest unpublished row older than 30 s) is reached by
 * moving the service's clock, which the backlog gauge reads, by {@link #THRESHOLD}: only
 * the rule's {@code for:} is waited out on Prometheus's clock, and the two minutes count
 * both.
 */
class OutboxAlertIT extends SwipeTestBase {

	static final Duration WITHIN = Duration.ofMinutes(2);

	/** The age {@code KindlingOutboxBehind}'s expression looks for. */
	static final Duration THRESHOLD = Duration.ofSeconds(30);

	@Autowired
	JsonMapper json;

	/**
	 * The web edge's, for the token the closed actuator takes (each test context makes
	 * its own; {@code random.uuid} read again would be another).
	 */
	@Autowired
	WebEdgeProperties edge;

	@Test
	void theOutboxAlertFiresWithinTwoMinutesOfTheRelayStoppingWhileMatchesAreWritten() throws Exception {
		// the relay has kept up: everything written so far is published
		relayPublishesEverything();
		Path rules = ApiContract.repositoryRoot().resolve("config/prometheus/alerts.yml");
		try (PrometheusServer prometheus = new PrometheusServer(Files.createTempDirectory("prometheus"),
				FreePorts.pick(), configuration(rules))) {
			prometheus.start();
			FreePorts.await("a scrape of an outbox with nothing unpublished", Duration.ofSeconds(60),
					() -> prometheus.query("kindling_outbox_oldest_unpublished_age_seconds{table=\"match_outbox\"}")
						.stream()
						.anyMatch((sample) -> sample.value() == 0));
			assertThat(prometheus.alerts("firing")).as("quiet while the relay keeps up").isEmpty();

			// the relay stops; matches go on being written
			Instant stopped = Instant.now();
			long ana = newUser();
			long ben = newUser();
			this.api.swipe(ana, key(), ben, "LIKE");
			assertThat(this.json.readTree(this.api.swipe(ben, key(), ana, "LIKE").body()).get("matched").asBoolean())
				.isTrue();
			// the match's event waits the rule's threshold, on the clock the gauge reads
			this.clock.advance(THRESHOLD);

			try {
				FreePorts.await("KindlingOutboxBehind firing", WITHIN, () -> firing(prometheus).isPresent());
			}
			catch (IllegalStateException ex) {
				throw new AssertionError("not firing; the gauge: "
						+ prometheus.query("kindling_outbox_oldest_unpublished_age_seconds") + ", pending: "
						+ prometheus.alerts("pending") + ", targets: " + prometheus.targets() + ", scraped: "
						+ this.api.http()
							.get("/actuator/prometheus", null)
							.body()
							.lines()
							.filter((line) -> line.contains("outbox"))
							.toList()
						+ ", rows: "
						+ this.jdbc.sql(
								"SELECT id, created_at, published_at, parked_at FROM match_outbox ORDER BY id DESC LIMIT 3")
							.query()
							.listOfRows(),
						ex);
			}
			Duration took = Duration.between(stopped, Instant.now()).plus(THRESHOLD);

			assertThat(took).isLessThan(WITHIN);
			assertThat(firing(prometheus).get()).containsEntry("table", "match_outbox")
				.containsEntry("severity", "critical");
			assertThat(this.jdbc.sql("SELECT COUNT(*) FROM match_outbox WHERE published_at IS NULL")
				.query(Long.class)
				.single()).as("the match's event is still waiting").isPositive();
			System.out.println("KindlingOutboxBehind fired " + took.toSeconds() + " s after the relay stopped");
		}
	}

	private static java.util.Optional<Map<String, String>> firing(PrometheusServer prometheus) {
		List<Map<String, String>> firing = prometheus.alerts("firing");
		return firing.stream().filter((alert) -> "KindlingOutboxBehind".equals(alert.get("alertname"))).findFirst();
	}

	private void relayPublishesEverything() {
		this.jdbc.sql("UPDATE match_outbox SET published_at = NOW(6) WHERE published_at IS NULL").update();
	}

	/** This service as the one target, scraped and evaluated every 2 s. */
	private String configuration(Path rules) {
		return """
				global:
				  scrape_interval: 2s
				  evaluation_interval: 2s
				rule_files:
				  - %s
				scrape_configs:
				  - job_name: swipe-service
				    metrics_path: /actuator/prometheus
				    authorization:
				      type: Bearer
				      credentials: '%s'
				    static_configs:
				      - targets: ['127.0.0.1:%d']
				""".formatted(rules, this.edge.metricsToken(), this.port);
	}

}
