package io.kindling.relay.publish;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import io.kindling.outbox.SqlTime;
import io.kindling.relay.RelayProperties;
import io.kindling.relay.source.OutboxSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.util.backoff.BackOffExecution;

/**
 * Publishes one source: a few workers, each owning a block of partitions, and a probe
 * that wakes them.
 * <p>
 * Invariants:
 * <ul>
 * <li><em>After any wake-up, each worker starts a claim.</em> A worker is an executor of
 * one thread whose queue holds one claim: a wake-up while the worker is claiming queues
 * one more claim, and a wake-up while one is queued already is dropped, as that claim is
 * still to come. So a row committed before a wake-up is seen by a claim that starts after
 * it, whatever the worker was doing, and a flood of wake-ups is at most one claim more
 * per worker.</li>
 * <li><em>One claim at a time per block.</em> The one thread is what keeps a worker's
 * claims apart; the partition locks keep other relays' apart.</li>
 * <li><em>A worker claims until a claim comes back empty</em>, then rests until woken: an
 * idle relay runs only its probe.</li>
 * <li><em>While Kafka or the database fails, a worker backs off</em>
 * ({@code kafka-backoff}, doubling) and is woken by the scheduler when its rest ends;
 * wake-ups during the rest do not shorten it.</li>
 * <li><em>Stopping lets every worker finish its batch</em>: a batch is never abandoned
 * half sent.</li>
 * </ul>
 * The probe is one indexed {@code LIMIT 1} query on the {@link TaskScheduler}; it runs
 * every {@code polling.min-interval} while rows keep being published and doubles its
 * interval up to {@code polling.max-interval} while nothing is, so an idle relay costs
 * the database a query a second or so. A writer's after-commit wake-up reaches the
 * workers without it.
 */
final class SourceRelay {

	private static final Logger log = LoggerFactory.getLogger(SourceRelay.class);

	/** The probe's interval while the source's table is not there yet. */
	private static final Duration NOT_READY_INTERVAL = Duration.ofSeconds(1);

	private final OutboxSource source;

	private final OutboxBatch batch;

	private final RelayProperties properties;

	private final Clock clock;

	private final TaskScheduler scheduler;

	private final String probeQuery;

	private final List<Worker> workers;

	private final AtomicLong published = new AtomicLong();

	/** What the probe's trigger waits after its last run; only the probe changes it. */
	private volatile Duration probeInterval;

	private long publishedAtLastProbe;

	private volatile boolean running;

	private @Nullable ScheduledFuture<?> probe;

	SourceRelay(OutboxSource source, OutboxBatch batch, RelayProperties properties, Clock clock,
			TaskScheduler scheduler) {
		this.source = source;
		this.batch = batch;
		this.properties = properties;
		this.clock = clock;
		this.scheduler = scheduler;
		this.probeQuery = """
				SELECT id FROM %s
				WHERE published_at IS NULL AND parked_at IS NULL
				  AND (next_attempt_at IS NULL OR next_attempt_at <= FROM_UNIXTIME(:now))
				LIMIT 1
				""".formatted(source.table());
		List<PartitionBlock> blocks = PartitionBlock.split(properties.partitions(), properties.workersPerSource());
		this.workers = IntStream.range(0, blocks.size()).mapToObj((i) -> new Worker(i, blocks.get(i))).toList();
		this.probeInterval = properties.polling().minInterval();
	}

	void start() {
		this.running = true;
		this.workers.forEach(Worker::start);
		// each worker's first claim needs no probe
		wakeUp();
		this.probe = this.scheduler.schedule(this::probe, new ProbeTrigger());
	}

	/** Lets every worker finish its batch (never abandons one half-sent), then stops. */
	void stop(Duration timeout) {
		this.running = false;
		ScheduledFuture<?> scheduled = this.probe;
		if (scheduled != null) {
			scheduled.cancel(false);
		}
		this.workers.forEach((worker) -> worker.stop(timeout));
	}

	String table() {
		return this.source.table();
	}

	/**
	 * Makes every worker claim once more, now or as soon as its batch ends (a writer's
	 * wake-up, or the probe finding rows).
	 */
	void wakeUp() {
		this.workers.forEach(Worker::wakeUp);
	}

	private void probe() {
		if (!this.running) {
			return;
		}
		if (!this.source.ready()) {
			this.probeInterval = NOT_READY_INTERVAL;
			return;
		}
		if (this.workers.stream().allMatch(Worker::claiming)) {
			// Every worker goes on until a claim comes back empty: a probe now would only
			// cost the database a scan over the index entries they have just published.
			this.probeInterval = this.properties.polling().minInterval();
			return;
		}
		boolean pending;
		try {
			pending = !this.source.jdbc()
				.sql(this.probeQuery)
				.param("now", SqlTime.epochSeconds(this.clock.instant()))
				.query(Long.class)
				.list()
				.isEmpty();
		}
		catch (RuntimeException ex) {
			log.warn("{}: probe failed: {}", this.source.name(), ex.toString());
			this.probeInterval = NOT_READY_INTERVAL;
			return;
		}
		if (pending) {
			wakeUp();
		}
		long publishedNow = this.published.get();
		Duration doubled = this.probeInterval.multipliedBy(2);
		Duration max = this.properties.polling().maxInterval();
		this.probeInterval = (publishedNow != this.publishedAtLastProbe) ? this.properties.polling().minInterval()
				: (doubled.compareTo(max) > 0) ? max : doubled;
		this.publishedAtLastProbe = publishedNow;
	}

	/** The probe runs its current interval after its last run ended. */
	private final class ProbeTrigger implements Trigger {

		@Override
		public Instant nextExecution(TriggerContext context) {
			Instant last = context.lastCompletion();
			return (last != null) ? last.plus(SourceRelay.this.probeInterval) : context.getClock().instant();
		}

	}

	/**
	 * One block of partitions and the one thread that claims it, through the producer of
	 * its index's lane.
	 */
	private final class Worker {

		private final int index;

		private final PartitionBlock block;

		private final ThreadPoolTaskExecutor claims = new ThreadPoolTaskExecutor();

		/** Failures in a row; only the worker's thread touches it. */
		private @Nullable BackOffExecution failing;

		/** A failing worker rests: claims woken meanwhile are skipped. */
		private volatile boolean resting;

		Worker(int index, PartitionBlock block) {
			this.index = index;
			this.block = block;
			this.claims.setThreadNamePrefix("relay-" + SourceRelay.this.source.name() + "-" + index + "-");
			this.claims.setCorePoolSize(1);
			this.claims.setMaxPoolSize(1);
			// the claim owed after the current one; a wake-up while it waits is dropped
			this.claims.setQueueCapacity(1);
			this.claims.setRejectedExecutionHandler(new ThreadPoolExecutor.DiscardPolicy());
			this.claims.setWaitForTasksToCompleteOnShutdown(true);
		}

		void start() {
			this.claims.initialize();
		}

		void stop(Duration timeout) {
			this.claims.setAwaitTerminationMillis(timeout.toMillis());
			this.claims.shutdown();
		}

		void wakeUp() {
			this.claims.execute(this::drain);
		}

		boolean claiming() {
			return this.claims.getActiveCount() > 0;
		}

		/** Claims until a claim comes back empty, Kafka fails, or the relay stops. */
		private void drain() {
			if (!SourceRelay.this.running || this.resting || !SourceRelay.this.source.ready()) {
				return;
			}
			while (SourceRelay.this.running) {
				BatchResult result;
				try {
					result = SourceRelay.this.batch.run(this.block, this.index);
				}
				catch (RuntimeException ex) {
					// The transaction rolled back: its rows are claimed again later (at
					// least once).
					log.warn("{}: batch of partitions {}-{} failed, retrying: {}", SourceRelay.this.source.name(),
							this.block.first(), this.block.last(), ex.toString());
					rest();
					return;
				}
				SourceRelay.this.published.addAndGet(result.published());
				if (result.kafkaUnavailable()) {
					log.info("{}: Kafka did not take the batch of partitions {}-{}, backing off",
							SourceRelay.this.source.name(), this.block.first(), this.block.last());
					rest();
					return;
				}
				this.failing = null;
				if (!result.didWork()) {
					return;
				}
			}
		}

		/** Rests the next back-off delay, then claims again. */
		private void rest() {
			BackOffExecution failures = this.failing;
			if (failures == null) {
				failures = SourceRelay.this.properties.kafkaBackoff().toBackOff().start();
				this.failing = failures;
			}
			this.resting = true;
			SourceRelay.this.scheduler.schedule(() -> {
				this.resting = false;
				wakeUp();
			}, SourceRelay.this.clock.instant().plusMillis(failures.nextBackOff()));
		}

	}

}
