package io.kindling.relay.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import io.kindling.relay.RelayProperties;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;

/**
 * The relay's idempotent producers ({@code acks=all}, {@code enable.idempotence=true},
 * one request in flight per broker connection): one per lane, each replaced when it
 * reaches a state it cannot recover from. Lane {@code i} is worker {@code i} of every
 * source, so a key (one partition, one worker) always goes through the same producer, and
 * the workers' requests travel on connections of their own instead of queueing behind
 * each other on one. A claim sends all its records through one {@link Session}, so they
 * are one first-in, first-out queue per Kafka partition. Records go only to topics that
 * {@link KafkaTopics} has created or checked.
 * <p>
 * The producers are made by {@link KafkaProducer}'s constructor from the configuration
 * settled here, unless the context holds a bean that is a
 * {@code Function<Map<String, Object>, Producer<String, byte[]>>}: the relay never
 * declares one; {@code ./kindling bench relay} adds one to its relay to measure it with
 * more requests in flight, which is the only use it has.
 */
@Component
public class KafkaPublisher implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(KafkaPublisher.class);

	private final Map<String, Object> config;

	private final Function<Map<String, Object>, Producer<String, byte[]>> maker;

	private final Duration ackTimeout;

	private final KafkaTopics topics;

	/**
	 * Each lane's producer, the one its new sessions get; empty until first used, and
	 * after a replacement.
	 */
	private final AtomicReferenceArray<@Nullable Producer<String, byte[]>> producers;

	public KafkaPublisher(KafkaProperties kafka, RelayProperties relay, KafkaTopics topics,
			ObjectProvider<Function<Map<String, Object>, Producer<String, byte[]>>> maker) {
		Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
		config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
		// the outbox payload is already the record value, as UTF-8 bytes
		config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
		// Not settings: per-key order and no loss depend on them.
		config.put(ProducerConfig.ACKS_CONFIG, "all");
		config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		// One request in flight, so a partition's next batch leaves only once the one
		// before it is acked. Idempotence alone does not keep order: a broker that holds
		// no state for this producer on a partition (its first batch there, or state
		// expired) accepts any sequence number, so when a restarting broker bounces the
		// first batch (NOT_LEADER_OR_FOLLOWER) and takes the second, the second is
		// appended first and the retried first one fails with
		// OUT_OF_ORDER_SEQUENCE_NUMBER
		// for ever (docs/events.md, "Per-key order after a broker restart").
		config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
		// A record never expires inside the producer: an expired batch followed by a
		// delivered one would put a key's later event before its earlier one. Each
		// partition's queue stays first in, first out; a batch that is not acked in
		// ack-timeout is claimed and sent again behind it (a duplicate, never a reorder).
		config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
		// With no delivery timeout a retry count is the only limit left, and a batch
		// given up in the middle of a partition's queue is what idempotence cannot order.
		config.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
		// The producer is made on first use: a setting Kafka refuses fails the start-up
		// here, not every row's send.
		new ProducerConfig(config);
		this.config = Map.copyOf(config);
		this.maker = maker.getIfAvailable(() -> KafkaProducer::new);
		this.producers = new AtomicReferenceArray<>(relay.workersPerSource());
		this.ackTimeout = relay.ackTimeout();
		this.topics = topics;
	}

	/**
	 * How long a batch waits for its acks before it gives up and leaves its rows for the
	 * next claim.
	 */
	public Duration ackTimeout() {
		return this.ackTimeout;
	}

	/**
	 * The producer one claim sends all its records through: its lane's (the claiming
	 * worker's index).
	 */
	public Session session(int lane) {
		Producer<String, byte[]> current = this.producers.get(lane);
		while (current == null) {
			Producer<String, byte[]> created = this.maker.apply(this.config);
			current = this.producers.compareAndExchange(lane, null, created);
			if (current == null) {
				current = created;
			}
			else {
				// another worker made one first
				created.close(Duration.ZERO);
			}
		}
		return new Session(lane, current);
	}

	/** Kafka would not take it now, but will later: back off, retry, do not count. */
	public static boolean isTransient(Throwable failure) {
		return failure instanceof RetriableException || failure instanceof java.util.concurrent.TimeoutException
				|| isFatal(failure);
	}

	/** The producer itself is broken (not the record): replace it and retry. */
	static boolean isFatal(Throwable failure) {
		return failure instanceof OutOfOrderSequenceException || failure instanceof ProducerFencedException
				|| failure instanceof AuthenticationException || failure instanceof UnsupportedVersionException
				|| failure instanceof IllegalStateException;
	}

	/**
	 * Takes the broken producer out of use, once, whichever session noticed first; the
	 * sessions still holding it see their records fail as not the rows' fault.
	 */
	private void replace(int lane, Producer<String, byte[]> broken, Throwable cause) {
		if (this.producers.compareAndSet(lane, broken, null)) {
			log.warn("Replacing the Kafka producer of lane {} after {}", lane, cause.toString());
			broken.close(Duration.ZERO);
		}
	}

	@Override
	public void destroy() {
		for (int lane = 0; lane < this.producers.length(); lane++) {
			Producer<String, byte[]> current = this.producers.getAndSet(lane, null);
			if (current != null) {
				current.close(Duration.ofSeconds(5));
			}
		}
	}

	/**
	 * One claim's use of the producer. All its records go through the same producer, so
	 * per partition they are acked in the order they were sent, and a failure fails the
	 * records queued behind it too: what is acked of a claim is always a prefix of each
	 * key's rows. A claim that took a producer since replaced has its waiting records
	 * aborted; that is not the rows' fault, so it counts as transient.
	 */
	public final class Session {

		private final int lane;

		private final Producer<String, byte[]> producer;

		private Session(int lane, Producer<String, byte[]> producer) {
			this.lane = lane;
			this.producer = producer;
		}

		/**
		 * Sends one record; a record the producer refuses at once (too large, no
		 * metadata) comes back as an already failed future.
		 */
		public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
			try {
				KafkaPublisher.this.topics.ensure(record.topic());
				return this.producer.send(record, callback);
			}
			catch (KafkaException | IllegalStateException ex) {
				failed(ex);
				return CompletableFuture.failedFuture(ex);
			}
		}

		/**
		 * After a failed send: takes this session's producer out of use if the failure
		 * leaves it unusable, so the next claim gets a fresh one.
		 */
		public void failed(Throwable failure) {
			if (isFatal(failure)) {
				replace(this.lane, this.producer, failure);
			}
		}

		/**
		 * Whether the failure is no fault of the row: Kafka will take it later, or this
		 * session's producer was replaced under it.
		 */
		public boolean isTransient(Throwable failure) {
			return KafkaPublisher.isTransient(failure) || KafkaPublisher.this.producers.get(this.lane) != this.producer;
		}

	}

}
