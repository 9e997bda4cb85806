package io.kindling.webclient.ops;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.stereotype.Service;

/**
 * What the console shows from Prometheus: each chart's lines over the last hour, one
 * point a minute on one time axis, and the alerts pending or firing.
 */
@Service
class Console {

	static final Duration WINDOW = Duration.ofHours(1);

	static final Duration STEP = Duration.ofMinutes(1);

	private static final Pattern LABEL = Pattern.compile("\\{(\\w+)}");

	private final Prometheus prometheus;

	private final Clock clock;

	Console(Prometheus prometheus, Clock clock) {
		this.prometheus = prometheus;
		this.clock = clock;
	}

	Charts charts() {
		// up to now: the last point holds what was scraped in the last minute
		Instant end = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);
		Instant start = end.minus(WINDOW);
		List<Long> times = new ArrayList<>();
		for (Instant at = start; !at.isAfter(end); at = at.plus(STEP)) {
			times.add(at.getEpochSecond());
		}
		List<ChartData> charts = new ArrayList<>();
		for (Chart chart : Chart.CONSOLE) {
			List<Line> lines = new ArrayList<>();
			for (Chart.Line line : chart.lines()) {
				for (Prometheus.Series series : this.prometheus.range(line.query(), start, end, STEP)) {
					List<@Nullable Double> values = new ArrayList<>(times.size());
					times.forEach((time) -> values.add(series.values().get(time)));
					lines.add(new Line(label(line.label(), series.labels()), values));
				}
			}
			charts.add(new ChartData(chart.name(), chart.title(), chart.unit(), lines));
		}
		return new Charts(times, charts);
	}

	JsonNode alerts() {
		return this.prometheus.alerts();
	}

	private static String label(String template, Map<String, String> labels) {
		Matcher names = LABEL.matcher(template);
		StringBuilder label = new StringBuilder();
		while (names.find()) {
			names.appendReplacement(label, Matcher.quoteReplacement(labels.getOrDefault(names.group(1), "?")));
		}
		names.appendTail(label);
		return label.toString();
	}

	/**
	 * @param times the epoch seconds of the points, shared by every line
	 */
	record Charts(List<Long> times, List<ChartData> charts) {

	}

	record ChartData(String name, String title, String unit, List<Line> lines) {

	}

	/**
	 * @param values one per time, null where the series has no value
	 */
	record Line(String label, List<@Nullable Double> values) {

	}

}
