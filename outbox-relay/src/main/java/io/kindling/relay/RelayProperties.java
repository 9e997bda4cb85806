package io.kindling.relay;

import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the relay ({@code kindling.relay.*}).
 *
 * @param batchSize rows claimed and sent per transaction; each claim has a fixed cost
 * that larger claims share out: with a 200,000-row backlog
 * ({@code ./kindling bench relay}) 500 per batch gave 10,100-10,600 events/s, 2000 gave
 * 14,000-16,200, and 4000 with 2 workers 14,700-21,400 in seven runs
 * @param maxAttempts rejected sends of one row before it is parked
 * @param retention how long published rows are kept before cleanup deletes them
 * @param adminToken the token the parked-rows API wants; empty turns that API off
 * @param partitions lock units the key-hash space is split into; the same on every relay
 * @param workersPerSource threads per source, each owning a block of partitions; 2, not
 * 4: on two cores 4 concurrent claim transactions cost MariaDB 60-70 µs per event against
 * 37-55 with 2
 * @param polling how often an idle relay looks for new rows
 * @param backoff delays before a rejected row is tried again
 * @param kafkaBackoff delays while Kafka is unreachable
 * @param ackTimeout how long a claim waits for Kafka's acks before leaving its rows to
 * the next claim
 * @param cleanup retention cleanup schedule and batch size
 * @param statsInterval how often the backlog gauges (unpublished rows, the oldest one's
 * age, parked rows) are counted; counting is a query per source, so not at each scrape
 * @param wakeUpPort UDP port the writers' after-commit wake-up arrives on (the HTTP
 * port's number, but UDP); 0 turns it off
 * @param wakeUpsPerSecond wake-ups taken per source table and second; more in the same
 * second are dropped (counted in {@code kindling_relay_wake_ups_total}), so a flood of
 * datagrams is at most this many extra claims a second per worker
 * @param sources the outbox tables to publish
 * @param topics how the relay creates its topics when they do not exist yet
 */
@Validated
@ConfigurationProperties("kindling.relay")
public record RelayProperties(@DefaultValue("4000") @Min(1) @Max(10_000) int batchSize,
		@DefaultValue("10") @Min(1) int maxAttempts, @DefaultValue("7d") Duration retention,
		@DefaultValue("") String adminToken, @DefaultValue("16") @Min(1) @Max(1024) int partitions,
		@DefaultValue("2") @Min(1) @Max(64) int workersPerSource, @DefaultValue @Valid Polling polling,
		@DefaultValue @Valid Backoff backoff, @DefaultValue @Valid KafkaBackoff kafkaBackoff,
		@DefaultValue("10s") Duration ackTimeout, @DefaultValue @Valid Cleanup cleanup,
		@DefaultValue("5s") Duration statsInterval, @DefaultValue("8083") @Min(0) @Max(65535) int wakeUpPort,
		@DefaultValue("50") @Min(1) int wakeUpsPerSecond, @NotEmpty List<@Valid Source> sources,
		@DefaultValue @Valid Topics topics) {

	/**
	 * This record's bean in a SpEL expression, for the {@code @Scheduled} tasks that read
	 * their intervals from it: {@code "#{" + RelayProperties.BEAN + ".statsInterval()}"}.
	 */
	public static final String BEAN = "@'kindling.relay-io.kindling.relay.RelayProperties'";

	/**
	 * @param minInterval the probe interval right after work was found
	 * @param maxInterval the probe interval after a long idle spell: bounds the latency
	 * of a lone event whose wake-up was lost, and is what an idle relay costs the
	 * database
	 */
	public record Polling(@DefaultValue("5ms") Duration minInterval, @DefaultValue("1s") Duration maxInterval) {
	}

	/** Exponential back-off: doubles from {@code initial} up to {@code max}. */
	public record Backoff(@DefaultValue("1s") Duration initial, @DefaultValue("5m") Duration max) {

		/** The delay after the given number of failures in a row (1 = the first). */
		public Duration after(int failures) {
			return exponential(this.initial, this.max, failures);
		}

	}

	/** Exponential back-off while Kafka does not answer: short, since it ends outages. */
	public record KafkaBackoff(@DefaultValue("100ms") Duration initial, @DefaultValue("5s") Duration max) {

		public BackOff toBackOff() {
			ExponentialBackOff backOff = new ExponentialBackOff(this.initial.toMillis(), 2);
			backOff.setMaxInterval(this.max.toMillis());
			return backOff;
		}

	}

	static Duration exponential(Duration initial, Duration max, int failures) {
		long millis = Math.max(1, initial.toMillis());
		for (int i = 1; i < failures && millis < max.toMillis(); i++) {
			millis *= 2;
		}
		return Duration.ofMillis(Math.min(millis, max.toMillis()));
	}

	/**
	 * @param interval how often published rows past retention are looked for
	 * @param batchSize rows deleted per statement, small so the hot path never waits
	 */
	public record Cleanup(@DefaultValue("1m") Duration interval, @DefaultValue("1000") @Min(1) int batchSize) {
	}

	/**
	 * The shape of the topics the relay creates at start-up. A topic that exists already
	 * is left as it is; a difference is logged.
	 *
	 * @param partitions partitions per topic; a key's events stay on one of them, so the
	 * count is never changed on an existing topic
	 * @param replicationFactor copies of each partition: 1 on the one-node stack, 3 with
	 * three brokers or more
	 * @param minInsyncReplicas copies that must have a record before Kafka acknowledges
	 * it ({@code acks=all}): 1 alone, 2 with a replication factor of 3
	 */
	public record Topics(@DefaultValue("12") @Min(1) @Max(10_000) int partitions,
			@DefaultValue("1") @Min(1) short replicationFactor, @DefaultValue("1") @Min(1) int minInsyncReplicas) {

		/** More than the replicas could never be in sync: every send would fail. */
		@AssertTrue(message = "min-insync-replicas must not exceed replication-factor")
		public boolean isMinInsyncReplicasWithinReplicationFactor() {
			return this.minInsyncReplicas <= this.replicationFactor;
		}

	}

	/**
	 * One outbox table and the topic its rows go to.
	 *
	 * @param name short name used in metrics and the API ({@code matches})
	 * @param url JDBC URL of the database that holds the table
	 * @param table the outbox table
	 * @param topic the Kafka topic
	 */
	public record Source(@NotBlank @Pattern(regexp = "[a-z][a-z0-9_-]{0,31}") String name, @NotBlank String url,
			@DefaultValue("kindling") String username, @DefaultValue("kindling") String password,
			@NotBlank @Pattern(regexp = "[a-z][a-z0-9_]{0,63}") String table, @NotBlank String topic) {

		@Override
		public String toString() {
			return "Source[" + this.name + ": " + this.table + " -> " + this.topic + "]";
		}

	}

}
