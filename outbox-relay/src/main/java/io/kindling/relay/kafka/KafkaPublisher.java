package io.kindling.relay.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

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
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;

/**
 * The one idempotent producer of this relay ({@code acks=all},
 * {@code enable.idempotence=true}, at most 5 requests in flight, so that retries never
 * reorder a partition). It is replaced when it reaches a state it cannot recover from.
 * Records go only to topics that {@link KafkaTopics} has created or checked.
 */
@Component
public class KafkaPublisher implements DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(KafkaPublisher.class);

	private final Map<String, Object> config;

	private final Duration ackTimeout;

	private final KafkaTopics topics;

	private @Nullable Producer<String, byte[]> producer;

	public KafkaPublisher(KafkaProperties kafka, RelayProperties relay, KafkaTopics topics) {
		Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
		config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
		// the outbox payload is already the record value, as UTF-8 bytes
		config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
		// Not settings: per-key order and no loss depend on them.
		config.put(ProducerConfig.ACKS_CONFIG, "all");
		config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
		int inFlight = Integer
			.parseInt(String.valueOf(config.getOrDefault(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5)));
		if (inFlight > 5) {
			throw new IllegalStateException("max.in.flight.requests.per.connection must be at most 5 to keep order");
		}
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
	 * Sends one record; a record the producer refuses at once (too large, no metadata)
	 * comes back as an already failed future.
	 */
	public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
		try {
			this.topics.ensure(record.topic());
		}
		catch (KafkaTopics.TopicNotReady ex) {
			return CompletableFuture.failedFuture(ex);
		}
		Producer<String, byte[]> current = producer();
		try {
			return current.send(record, callback);
		}
		catch (KafkaException | IllegalStateException ex) {
			if (isFatal(ex)) {
				replace(current, ex);
			}
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * After a failed send: drops the producer if the failure leaves it unusable, so the
	 * next batch gets a fresh one.
	 */
	public void failed(Throwable failure) {
		Producer<String, byte[]> current;
		synchronized (this) {
			current = this.producer;
		}
		if (current != null && isFatal(failure)) {
			replace(current, failure);
		}
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

	private synchronized Producer<String, byte[]> producer() {
		if (this.producer == null) {
			this.producer = new KafkaProducer<>(this.config);
		}
		return this.producer;
	}

	private void replace(Producer<String, byte[]> broken, Throwable cause) {
		synchronized (this) {
			if (this.producer != broken) {
				return;
			}
			this.producer = null;
		}
		log.warn("Replacing the Kafka producer after {}", cause.toString());
		broken.close(Duration.ZERO);
	}

	@Override
	public void destroy() {
		Producer<String, byte[]> current;
		synchronized (this) {
			current = this.producer;
			this.producer = null;
		}
		if (current != null) {
			current.close(Duration.ofSeconds(5));
		}
	}

}
