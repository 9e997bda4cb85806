package io.kindling.relay.publish;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kindling.outbox.SqlTime;
import io.kindling.relay.RelayProperties;
import io.kindling.relay.source.OutboxSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one source: a few workers, each owning a block of partitions, and a probe
 * that wakes them. The probe is one indexed {@code LIMIT 1} query; it runs every
 * {@code polling.min-interval} while rows keep coming and backs off to
 * {@code polling.max-interval} when idle, so an idle relay costs the database a handful
 * of cheap reads a second. A writer's after-commit wake-up skips the wait.
 */
final class SourceRelay {

	private static final Logger log = LoggerFactory.getLogger(SourceRelay.class);

	private static final Duration WAKE_UP_SPACING = Duration.ofMillis(5);

	private final OutboxSource source;

	private final OutboxBatch batch;

	private final RelayProperties properties;

	private final Clock clock;

	private final String probe;

	private final Object signal = new Object();

	private final Object probeSignal = new Object();

	private final Object stopSignal = new Object();

	private boolean probeNow;

	private final AtomicLong published = new AtomicLong();

	/**
	 * Workers inside {@link #drain}: while all of them are, a probe finds nothing new.
	 */
	private final AtomicInteger draining = new AtomicInteger();

	private int workers;

	private final List<Thread> threads = new ArrayList<>();

	private long generation;

	private volatile boolean running;

	SourceRelay(OutboxSource source, OutboxBatch batch, RelayProperties properties, Clock clock) {
		this.source = source;
		this.batch = batch;
		this.properties = properties;
		this.clock = clock;
		this.probe = """
				SELECT id FROM %s
				WHERE published_at IS NULL AND parked_at IS NULL
				  AND (next_attempt_at IS NULL OR next_attempt_at <= FROM_UNIXTIME(:now))
				LIMIT 1
				""".formatted(source.table());
	}

	void start() {
		this.running = true;
		int worker = 0;
		for (PartitionBlock block : PartitionBlock.split(this.properties.partitions(),
				this.properties.workersPerSource())) {
			this.threads.add(Thread.ofPlatform()
				.name("relay-" + this.source.name() + "-" + worker++)
				.daemon()
				.start(() -> work(block)));
		}
		this.workers = worker;
		this.threads
			.add(Thread.ofPlatform().name("relay-" + this.source.name() + "-probe").daemon().start(this::probe));
	}

	/** Lets every worker finish its batch (never abandons one half-sent), then stops. */
	void stop(Duration timeout) {
		this.running = false;
		wakeUp();
		probeNow();
		synchronized (this.stopSignal) {
			this.stopSignal.notifyAll();
		}
		long deadline = System.nanoTime() + timeout.toNanos();
		for (Thread thread : this.threads) {
			try {
				thread.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	String table() {
		return this.source.table();
	}

	/** Makes every worker look for rows now. */
	void wakeUp() {
		synchronized (this.signal) {
			this.generation++;
			this.signal.notifyAll();
		}
	}

	private void work(PartitionBlock block) {
		long seen = -1;
		while (this.running) {
			seen = awaitSignal(seen);
			this.draining.incrementAndGet();
			try {
				drain(block);
			}
			finally {
				this.draining.decrementAndGet();
			}
		}
	}

	private void drain(PartitionBlock block) {
		int kafkaFailures = 0;
		int databaseFailures = 0;
		while (this.running) {
			if (!this.source.ready()) {
				return;
			}
			BatchResult result;
			try {
				result = this.batch.run(block);
				databaseFailures = 0;
			}
			catch (RuntimeException ex) {
				// The transaction rolled back: its rows are claimed again later (at least
				// once).
				databaseFailures++;
				log.warn("{}: batch of partitions {}-{} failed, retrying: {}", this.source.name(), block.first(),
						block.last(), ex.toString());
				pause(this.properties.kafkaBackoff().after(databaseFailures));
				continue;
			}
			if (result.kafkaUnavailable()) {
				kafkaFailures++;
				log.info("{}: Kafka did not take the batch of partitions {}-{} ({} in a row), backing off",
						this.source.name(), block.first(), block.last(), kafkaFailures);
				pause(this.properties.kafkaBackoff().after(kafkaFailures));
			}
			else {
				kafkaFailures = 0;
			}
			if (result.published() > 0) {
				this.published.addAndGet(result.published());
			}
			if (!result.didWork() && !result.kafkaUnavailable()) {
				return;
			}
		}
	}

	private void probe() {
		Duration interval = this.properties.polling().minInterval();
		long publishedBefore = this.published.get();
		while (this.running) {
			boolean rung = pauseProbe(interval);
			if (!this.running) {
				return;
			}
			if (!this.source.ready()) {
				interval = Duration.ofSeconds(1);
				continue;
			}
			if (this.draining.get() == this.workers) {
				// Every worker is claiming already and goes on until a claim comes back
				// empty: a probe now would only cost the database a scan over the index
				// entries they have just published. But a claim that came back empty
				// just before a writer's commit is the worker's last: after a ring, each
				// worker claims once more (WakeUpIT lost such rows to the next poll).
				if (rung) {
					wakeUp();
				}
				interval = this.properties.polling().minInterval();
				continue;
			}
			boolean pending;
			try {
				pending = !this.source.jdbc()
					.sql(this.probe)
					.param("now", SqlTime.epochSeconds(this.clock.instant()))
					.query(Long.class)
					.list()
					.isEmpty();
			}
			catch (RuntimeException ex) {
				log.warn("{}: probe failed: {}", this.source.name(), ex.toString());
				interval = Duration.ofSeconds(1);
				continue;
			}
			if (pending) {
				wakeUp();
			}
			long publishedNow = this.published.get();
			if (publishedNow != publishedBefore) {
				interval = this.properties.polling().minInterval();
			}
			else {
				Duration doubled = interval.multipliedBy(2);
				interval = (doubled.compareTo(this.properties.polling().maxInterval()) > 0)
						? this.properties.polling().maxInterval() : doubled;
			}
			publishedBefore = publishedNow;
		}
	}

	private long awaitSignal(long seen) {
		synchronized (this.signal) {
			while (this.running && this.generation == seen) {
				try {
					this.signal.wait();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					this.running = false;
				}
			}
			return this.generation;
		}
	}

	/** Sleeps, but wakes early when the relay stops (not when rows arrive). */
	private void pause(Duration duration) {
		synchronized (this.stopSignal) {
			if (!this.running) {
				return;
			}
			try {
				this.stopSignal.wait(Math.max(1, duration.toMillis()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				this.running = false;
			}
		}
	}

	/** A writer committed rows: probe at once instead of at the next interval. */
	void probeNow() {
		synchronized (this.probeSignal) {
			this.probeNow = true;
			this.probeSignal.notifyAll();
		}
	}

	/**
	 * Waits out the interval, or less after a writer's ring.
	 * @return whether a ring ended the wait
	 */
	private boolean pauseProbe(Duration interval) {
		long start = System.nanoTime();
		long deadline = start + interval.toNanos();
		// A wake-up brings the probe forward, but never closer than 5 ms to the last one:
		// a flood of datagrams cannot turn into a flood of queries.
		long earliest = start + WAKE_UP_SPACING.toNanos();
		synchronized (this.probeSignal) {
			while (this.running) {
				long now = System.nanoTime();
				long until = (this.probeNow) ? earliest : deadline;
				if (now >= until) {
					break;
				}
				try {
					this.probeSignal.wait(Math.max(1, (until - now) / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					this.running = false;
				}
			}
			boolean rung = this.probeNow;
			this.probeNow = false;
			return rung;
		}
	}

}
