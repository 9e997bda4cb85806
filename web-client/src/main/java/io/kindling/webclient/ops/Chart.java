package io.kindling.webclient.ops;

import java.util.List;

/**
 * One chart of the console: what it shows, and each line of it as a PromQL range query.
 *
 * @param name its id in the page
 * @param unit what its values count ({@code per minute}, {@code seconds})
 */
record Chart(String name, String title, String unit, List<Line> lines) {

	/**
	 * One query; each series it answers is one line, named by {@code label} with the
	 * series' labels put in (a {@code {topic}} is the series' {@code topic} label).
	 */
	record Line(String label, String query) {

	}

	/** The console's charts, each over the last hour. */
	static final List<Chart> CONSOLE = List.of(
			new Chart("rooms", "Joins and rooms formed", "per minute", List.of(
					new Line("joins",
							"sum(rate(http_server_requests_seconds_count{job=\"matching-service\",method=\"POST\","
									+ "uri=\"/api/matching\",status=~\"2..\"}[2m])) * 60"),
					new Line("rooms formed", "sum(rate(kindling_matching_rooms_formed_total[2m])) * 60"))),
			new Chart("room-wait", "Room wait per queue", "seconds", List.of(
					new Line("p50 topic {topic}, size {size}",
							"histogram_quantile(0.5, sum by (topic, size, le) "
									+ "(rate(kindling_matching_wait_seconds_bucket[5m])))"),
					new Line("p95 topic {topic}, size {size}",
							"histogram_quantile(0.95, sum by (topic, size, le) "
									+ "(rate(kindling_matching_wait_seconds_bucket[5m])))"))),
			new Chart("swipes", "Swipes and matches", "per minute",
					List.of(new Line("swipes", "sum(rate(kindling_swipe_swipes_total[2m])) * 60"),
							new Line("matches", "sum(rate(kindling_swipe_matches_created_total[2m])) * 60"))),
			new Chart("relay-lag", "Relay lag", "seconds", List.of(
					new Line("oldest unpublished, {table}",
							"max by (table) (kindling_outbox_oldest_unpublished_age_seconds)"),
					new Line("p95 row to Kafka, {source}",
							"histogram_quantile(0.95, sum by (source, le) (rate(kindling_relay_latency_seconds_bucket[5m])))"))),
			new Chart("errors", "5xx answers per service", "per minute", List.of(new Line("{job}",
					"sum by (job) (rate(http_server_requests_seconds_count{status=~\"5..\"}[2m])) * 60"))));

}
