package io.kindling.relay.publish;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kindling.outbox.SqlTime;
import io.kindling.relay.RelayProperties;
import io.kindling.relay.source.OutboxSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one source: a few workers, each owning a block of partitions, and a probe
 * that wakes them. The probe is one indexed {@code LIMIT 1} query; it runs every
 * {@code polling.min-interval} while rows keep coming and backs off to
 * {@code polling.max-interval} when idle, so an idle relay costs the database a handful
 * of cheap reads a second. A writer's after-commit wake-up skips the wait.
 * <p>
 * Invariant: <em>after any wake-up, each worker starts a claim.</em> A worker's wake-ups
 * go into its own queue of one slot, emptied before each claim: offering never blocks nor
 * is lost, and an offer to a full slot is a claim already owed. A wake-up that comes
 * while a worker's last claim is coming back empty waits in the slot, and a writer's ring
 * always becomes a wake-up: a committed row never waits for the next poll.
 */
final class SourceRelay {

	private static final Logger log = LoggerFactory.getLogger(SourceRelay.class);

	private static final Duration WAKE_UP_SPACING = Duration.ofMillis(5);

	/** What a wake-up queue holds: only whether a claim is owed counts. */
	private static final Object OWED = new Object();

	private final OutboxSource source;

	private final OutboxBatch batch;

	private final RelayProperties properties;

	private final Clock clock;

	private final String probe;

	/** Each worker's share of the partitions. */
	private final List<PartitionBlock> blocks;

	/** One slot per worker (by block): a claim that worker owes. */
	private final List<BlockingQueue<Object>> wakeUps;

	/** One slot: a writer's ring the probe has not answered yet. */
	private final BlockingQueue<Object> rings = new ArrayBlockingQueue<>(1);

	private final CountDownLatch stopped = new CountDownLatch(1);

	private final AtomicLong published = new AtomicLong();

	/**
	 * Workers inside {@link #drain}: while all of them are, a probe finds nothing new.
	 */
	private final AtomicInteger draining = new AtomicInteger();

	private @Nullable ExecutorService threads;

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
		this.blocks = PartitionBlock.split(properties.partitions(), properties.workersPerSource());
		this.wakeUps = this.blocks.stream()
			.map((block) -> (BlockingQueue<Object>) new ArrayBlockingQueue<>(1))
			.toList();
	}

	void start() {
		// the last thread is the probe
		ExecutorService threads = Executors.newFixedThreadPool(this.blocks.size() + 1,
				Thread.ofPlatform().name("relay-" + this.source.name() + "-", 0).daemon().factory());
		// each worker's first claim needs no probe
		wakeUp();
		for (int worker = 0; worker < this.blocks.size(); worker++) {
			PartitionBlock block = this.blocks.get(worker);
			BlockingQueue<Object> wakeUp = this.wakeUps.get(worker);
			threads.execute(() -> work(block, wakeUp));
		}
		threads.execute(this::probe);
		threads.shutdown();
		this.threads = threads;
	}

	/** Lets every worker finish its batch (never abandons one half-sent), then stops. */
	void stop(Duration timeout) {
		this.stopped.countDown();
		// each thread wakes and sees the stop
		wakeUp();
		this.rings.offer(OWED);
		ExecutorService threads = this.threads;
		if (threads == null) {
			return;
		}
		try {
			threads.awaitTermination(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	String table() {
		return this.source.table();
	}

	/** Makes every worker claim once more, now or as soon as its batch ends. */
	void wakeUp() {
		this.wakeUps.forEach((wakeUp) -> wakeUp.offer(OWED));
	}

	/** A writer committed rows: the probe wakes the workers now instead of polling. */
	void probeNow() {
		this.rings.offer(OWED);
	}

	private boolean stopped() {
		return this.stopped.getCount() == 0;
	}

	private void work(PartitionBlock block, BlockingQueue<Object> wakeUp) {
		try {
			while (true) {
				wakeUp.take();
				if (stopped()) {
					return;
				}
				this.draining.incrementAndGet();
				try {
					drain(block);
				}
				finally {
					this.draining.decrementAndGet();
				}
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void drain(PartitionBlock block) throws InterruptedException {
		int kafkaFailures = 0;
		int databaseFailures = 0;
		while (!stopped()) {
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
		try {
			while (!stopped()) {
				boolean rung = awaitRing(interval);
				if (stopped()) {
					return;
				}
				if (!this.source.ready()) {
					interval = Duration.ofSeconds(1);
					continue;
				}
				if (rung) {
					// The ring's rows were committed before it: a claim that starts now
					// sees them, whatever the workers are doing.
					wakeUp();
					interval = this.properties.polling().minInterval();
					publishedBefore = this.published.get();
					continue;
				}
				if (this.draining.get() == this.wakeUps.size()) {
					// Every worker is claiming already and goes on until a claim
					// comes back empty: a probe now would only cost the database a
					// scan over the index entries they have just published.
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
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Waits out the interval, or less after a writer's ring, but never less than 5 ms: a
	 * flood of datagrams cannot turn into a flood of claims.
	 * @return whether a ring ended the wait
	 */
	private boolean awaitRing(Duration interval) throws InterruptedException {
		long earliest = System.nanoTime() + WAKE_UP_SPACING.toNanos();
		boolean rung = this.rings.poll(interval.toNanos(), TimeUnit.NANOSECONDS) != null;
		if (rung) {
			this.stopped.await(Math.max(0, earliest - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		return rung;
	}

	/** Sleeps, but wakes early when the relay stops (not when rows arrive). */
	private void pause(Duration duration) throws InterruptedException {
		this.stopped.await(Math.max(1, duration.toMillis()), TimeUnit.MILLISECONDS);
	}

}
