package io.kindling.matching.stats;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Set;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.QueueStatsScript;
import io.kindling.matching.queue.TokenState;
import io.kindling.matching.topic.Topic;
import io.kindling.matching.topic.TopicCatalogue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;

import org.springframework.stereotype.Component;

/**
 * A snapshot of every active topic's two queues (how many wait, since when the oldest
 * waits, how fast people arrived lately), refreshed by the sweeper once per sweep, so
 * that the stats endpoint, the waiting answers and the gauges cost no Redis call at all.
 * Each instance keeps its own, read from the same keys, so they agree within a sweep.
 */
@Component
public class QueueStats {

	/** The arrival rate is the joins counted over this much of the recent past. */
	static final Duration ARRIVAL_WINDOW = Duration.ofMinutes(5);

	private static final Duration SAMPLE_EVERY = Duration.ofSeconds(5);

	private static final List<Integer> SIZES = List.of(2, 3);

	private final QueueStatsScript script;

	private final TopicCatalogue topics;

	private final Clock clock;

	private final WaitEstimate estimate;

	private final MultiGauge waitingGauge;

	private final MultiGauge oldestGauge;

	private final MultiGauge estimatedGauge;

	/** Touched only under the refresh's lock. */
	private final Map<MatchQueue, Deque<Sample>> samples = new HashMap<>();

	private volatile Map<MatchQueue, Seen> snapshot = Map.of();

	/** The queues the gauges have rows for; touched only under the refresh's lock. */
	private List<MatchQueue> gauged = List.of();

	QueueStats(QueueStatsScript script, TopicCatalogue topics, Clock clock, MatchingProperties properties,
			MeterRegistry registry) {
		this.script = script;
		this.topics = topics;
		this.clock = clock;
		this.estimate = new WaitEstimate(properties.fallbackAfter(), properties.waitTimeout());
		this.waitingGauge = MultiGauge.builder("kindling.matching.queue.waiting")
			.description("people waiting in the queue, as GET /api/matching/queues shows them")
			.register(registry);
		this.oldestGauge = MultiGauge.builder("kindling.matching.queue.oldest.wait")
			.description("how long the oldest in the queue has waited")
			.baseUnit("seconds")
			.register(registry);
		this.estimatedGauge = MultiGauge.builder("kindling.matching.queue.estimated.wait")
			.description("how long someone joining the queue now is expected to wait")
			.baseUnit("seconds")
			.register(registry);
	}

	/**
	 * Reads the active topics' queues that may hold someone (one round trip where it can
	 * be one); a queue out of the sweeper's index had nobody join lately, so it is empty
	 * and its join counter is as last read (each is read once, at this instance's first
	 * refresh).
	 * @param mayHoldSomeone the queues in the sweeper's index
	 */
	public synchronized void refresh(Set<MatchQueue> mayHoldSomeone) {
		Instant now = this.clock.instant();
		List<MatchQueue> queues = new ArrayList<>();
		for (Topic topic : this.topics.activeTopics()) {
			for (int size : SIZES) {
				queues.add(new MatchQueue(topic.id(), size));
			}
		}
		List<MatchQueue> toRead = queues.stream()
			.filter((queue) -> mayHoldSomeone.contains(queue) || !this.samples.containsKey(queue))
			.toList();
		Map<MatchQueue, Seen> seen = new HashMap<>();
		this.script.read(toRead)
			.forEach((queue, reading) -> seen.put(queue, new Seen(reading.waiting(), reading.oldestSince(),
					arrivalsPerSecond(queue, reading.joins(), now))));
		for (MatchQueue queue : queues) {
			if (!seen.containsKey(queue)) {
				long joins = this.samples.get(queue).peekLast().joins();
				seen.put(queue, new Seen(0, Optional.empty(), arrivalsPerSecond(queue, joins, now)));
			}
		}
		this.samples.keySet().retainAll(seen.keySet());
		this.snapshot = Map.copyOf(seen);
		if (!queues.equals(this.gauged)) {
			gauge(queues);
		}
	}

	/** The gauges read the snapshot when scraped; their rows change with the topics. */
	private void gauge(List<MatchQueue> queues) {
		this.gauged = List.copyOf(queues);
		List<MultiGauge.Row<?>> waiting = new ArrayList<>();
		List<MultiGauge.Row<?>> oldest = new ArrayList<>();
		List<MultiGauge.Row<?>> estimated = new ArrayList<>();
		for (MatchQueue queue : queues) {
			Tags tags = Tags.of("topic", String.valueOf(queue.topicId()), "size", String.valueOf(queue.size()));
			waiting.add(MultiGauge.Row.of(tags, this, (stats) -> stats.figures(queue).waiting()));
			oldest.add(MultiGauge.Row.of(tags, this, (stats) -> stats.figures(queue).oldestWaitMs() / 1e3));
			estimated.add(MultiGauge.Row.of(tags, this, (stats) -> stats.figures(queue).estimatedWaitMs() / 1e3));
		}
		this.waitingGauge.register(waiting, true);
		this.oldestGauge.register(oldest, true);
		this.estimatedGauge.register(estimated, true);
	}

	/** Every active topic's two queues as the last refresh saw them, now. */
	public List<QueueFigures> all() {
		List<QueueFigures> all = new ArrayList<>();
		for (Topic topic : this.topics.activeTopics()) {
			for (int size : SIZES) {
				all.add(figures(new MatchQueue(topic.id(), size)));
			}
		}
		return all;
	}

	QueueFigures figures(MatchQueue queue) {
		Instant now = this.clock.instant();
		Seen seen = seen(queue);
		Duration oldestWaited = seen.oldestWaited(now);
		return new QueueFigures(queue.topicId(), queue.size(), seen.waiting(), oldestWaited.toMillis(),
				this.estimate.forNewcomer(queue.size(), seen.waiting(), oldestWaited, seen.arrivalsPerSecond())
					.toMillis());
	}

	/**
	 * The estimated wait of a token waiting (answered with its status): a join of several
	 * topics waits in each of their queues and takes the room that forms first, so the
	 * shortest of its queues' estimates.
	 */
	public Duration estimatedWait(TokenState.Waiting waiting) {
		Instant now = this.clock.instant();
		Duration waited = Duration.between(waiting.since(), now);
		return waiting.queues().stream().map((queue) -> {
			Seen seen = seen(queue);
			return this.estimate.forWaiting(queue.size(), seen.waiting(), seen.oldestWaited(now),
					waited.isNegative() ? Duration.ZERO : waited, seen.arrivalsPerSecond());
		}).min(Duration::compareTo).orElseThrow();
	}

	private Seen seen(MatchQueue queue) {
		return this.snapshot.getOrDefault(queue, new Seen(0, Optional.empty(), 0));
	}

	/**
	 * Joins per second over the arrival window, from the queue's join counter sampled
	 * every few seconds; zero until two samples a second apart exist.
	 */
	private double arrivalsPerSecond(MatchQueue queue, long joins, Instant now) {
		Deque<Sample> kept = this.samples.computeIfAbsent(queue, (key) -> new ArrayDeque<>());
		if (!kept.isEmpty() && (joins < kept.peekLast().joins() || now.isBefore(kept.peekLast().at()))) {
			// the counter or the clock went back (a flushed Redis): start over
			kept.clear();
		}
		if (kept.isEmpty() || !now.isBefore(kept.peekLast().at().plus(SAMPLE_EVERY))) {
			kept.addLast(new Sample(now, joins));
		}
		while (kept.size() > 1 && kept.peekFirst().at().isBefore(now.minus(ARRIVAL_WINDOW))) {
			kept.removeFirst();
		}
		Sample first = kept.peekFirst();
		double seconds = Duration.between(first.at(), now).toMillis() / 1e3;
		return (seconds >= 1) ? (joins - first.joins()) / seconds : 0;
	}

	private record Sample(Instant at, long joins) {

	}

	private record Seen(int waiting, Optional<Instant> oldestSince, double arrivalsPerSecond) {

		Duration oldestWaited(Instant now) {
			return this.oldestSince.map((since) -> Duration.between(since, now))
				.filter((waited) -> !waited.isNegative())
				.orElse(Duration.ZERO);
		}

	}

	/**
	 * One queue's figures.
	 *
	 * @param waiting how many wait in it
	 * @param oldestWaitMs how long the oldest of them has waited (0 when nobody waits)
	 * @param estimatedWaitMs how long someone joining now is expected to wait
	 */
	public record QueueFigures(long topicId, int size, int waiting, long oldestWaitMs, long estimatedWaitMs) {

	}

}
