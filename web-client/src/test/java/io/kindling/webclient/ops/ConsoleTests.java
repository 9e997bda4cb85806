package io.kindling.webclient.ops;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kindling.webclient.WebClientProperties;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the console lays Prometheus's answers out for the page: one time axis of the last
 * hour, each series a line on it with a gap where it has no value, named from its labels.
 */
class ConsoleTests {

	static final Instant NOW = Instant.parse("2026-12-05T12:00:30.700Z");

	@Test
	void everyLineSharesOneMinuteByMinuteAxisOfTheLastHourEndingNow() {
		Answering prometheus = new Answering(List.of());
		Console.Charts charts = new Console(prometheus, Clock.fixed(NOW, ZoneOffset.UTC)).charts();

		long end = Instant.parse("2026-12-05T12:00:30Z").getEpochSecond();
		assertThat(charts.times()).hasSize(61).startsWith(end - 3600).endsWith(end);
		assertThat(charts.times()).allSatisfy((time) -> assertThat((time - end) % 60).isZero());
		assertThat(prometheus.asked).hasSize(Chart.CONSOLE.stream().mapToInt((chart) -> chart.lines().size()).sum())
			.allSatisfy((range) -> assertThat(range).isEqualTo((end - 3600) + ".." + end + "/60"));
		assertThat(charts.charts()).extracting(Console.ChartData::name)
			.containsExactly("rooms", "room-wait", "swipes", "relay-lag", "errors");
		assertThat(charts.charts()).allSatisfy((chart) -> assertThat(chart.lines()).isEmpty());
	}

	@Test
	void aSeriesIsPlacedOnTheAxisWithGapsAndNamedByItsLabels() {
		long end = Instant.parse("2026-12-05T12:00:30Z").getEpochSecond();
		Prometheus.Series queue = new Prometheus.Series(Map.of("topic", "3", "size", "2"),
				Map.of(end - 120, 4.0, end, 6.5));
		Prometheus.Series unlabelled = new Prometheus.Series(Map.of(), Map.of(end - 3600, 1.0));
		Console.Charts charts = new Console(new Answering(List.of(queue, unlabelled)), Clock.fixed(NOW, ZoneOffset.UTC))
			.charts();

		Console.ChartData wait = charts.charts()
			.stream()
			.filter((chart) -> chart.name().equals("room-wait"))
			.findFirst()
			.orElseThrow();
		Console.Line p50 = wait.lines().get(0);
		assertThat(p50.label()).isEqualTo("p50 topic 3, size 2");
		assertThat(p50.values()).hasSize(61);
		assertThat(p50.values().get(58)).isEqualTo(4.0);
		assertThat(p50.values().get(60)).isEqualTo(6.5);
		assertThat(p50.values().subList(0, 58)).containsOnlyNulls();
		assertThat(p50.values().get(59)).isNull();
		// a label the series does not have
		assertThat(wait.lines().get(1).label()).isEqualTo("p50 topic ?, size ?");
		assertThat(wait.lines().get(1).values().get(0)).isEqualTo(1.0);
	}

	/** Answers every range query with the same series, and notes what it was asked. */
	static final class Answering extends Prometheus {

		final List<Prometheus.Series> series;

		final List<String> asked = new ArrayList<>();

		Answering(List<Prometheus.Series> series) {
			super(new WebClientProperties(URI.create("http://127.0.0.1:8081"), URI.create("http://127.0.0.1:8082"),
					URI.create("http://127.0.0.1:9"), ""));
			this.series = series;
		}

		@Override
		List<Series> range(String query, Instant start, Instant end, Duration step) {
			this.asked.add(start.getEpochSecond() + ".." + end.getEpochSecond() + "/" + step.toSeconds());
			return this.series;
		}

	}

}
