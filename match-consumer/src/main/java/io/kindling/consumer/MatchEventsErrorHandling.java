package io.kindling.consumer;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.kafka.support.ExponentialBackOffWithMaxRetries;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * What happens to a record the listener fails on. Spring Boot gives this error handler to
 * the listener containers.
 * <ul>
 * <li>A {@link MalformedEvent} goes to the dead-letter topic at once: it would fail the
 * same way every time.</li>
 * <li>While the database cannot be reached, the record is retried with back-off for as
 * long as that lasts, holding its partition: its events stay in order and none is
 * dead-lettered for an outage.</li>
 * <li>Anything else is retried {@code retry.max-retries} times with back-off, then goes
 * to the dead-letter topic, and the partition goes on with its next record.</li>
 * </ul>
 * Retries are blocking, in the partition, not retry topics: a retry topic would let a
 * key's later events overtake the failing one.
 */
@Configuration(proxyBeanMethods = false)
class MatchEventsErrorHandling {

	static final String DEAD_LETTER_TOPIC = deadLetterTopicOf(MatchEventsListener.TOPIC);

	static final String MESSAGES_DEAD_LETTER_TOPIC = deadLetterTopicOf(MatchEventsListener.MESSAGES_TOPIC);

	private static final Logger log = LoggerFactory.getLogger(MatchEventsErrorHandling.class);

	@Bean
	DefaultErrorHandler errorHandler(KafkaOperations<?, ?> kafka, MatchConsumerProperties properties,
			ObjectProvider<RetryListener> retryListeners) {
		// each topic's own dead-letter topic, same key, so a key's dead letters keep
		// their
		// order too; the partition is Kafka's choice, as the dead-letter topic has its
		// own
		// count
		var deadLetters = new DeadLetterPublishingRecoverer(kafka,
				(record, failure) -> new TopicPartition(deadLetterTopicOf(record.topic()), -1));
		MatchConsumerProperties.Retry retry = properties.retry();
		var handler = new DefaultErrorHandler(deadLetters, limited(retry));
		handler.addNotRetryableExceptions(MalformedEvent.class);
		BackOff unlimited = unlimited(retry);
		handler.setBackOffFunction((record, failure) -> databaseUnreachable(failure) ? unlimited : null);
		List<RetryListener> listeners = new ArrayList<>();
		listeners.add((record, failure, attempt) -> log.warn("Event at {}-{}@{} failed (attempt {}): {}",
				record.topic(), record.partition(), record.offset(), attempt, rootCause(failure).toString()));
		retryListeners.orderedStream().forEach(listeners::add);
		handler.setRetryListeners(listeners.toArray(RetryListener[]::new));
		return handler;
	}

	/**
	 * Created at start-up when missing, with the broker's default partitions and
	 * replication factor ({@code num.partitions}, {@code default.replication.factor}).
	 */
	@Bean
	NewTopic deadLetterTopic() {
		return TopicBuilder.name(DEAD_LETTER_TOPIC).build();
	}

	@Bean
	NewTopic messagesDeadLetterTopic() {
		return TopicBuilder.name(MESSAGES_DEAD_LETTER_TOPIC).build();
	}

	static String deadLetterTopicOf(String topic) {
		return topic + ".DLT";
	}

	private static BackOff limited(MatchConsumerProperties.Retry retry) {
		var backOff = new ExponentialBackOffWithMaxRetries(retry.maxRetries());
		backOff.setInitialInterval(retry.initialInterval().toMillis());
		backOff.setMultiplier(2);
		backOff.setMaxInterval(retry.maxInterval().toMillis());
		return backOff;
	}

	private static BackOff unlimited(MatchConsumerProperties.Retry retry) {
		var backOff = new ExponentialBackOff(retry.initialInterval().toMillis(), 2);
		backOff.setMaxInterval(retry.maxInterval().toMillis());
		return backOff;
	}

	/**
	 * No connection, or the transaction could not begin: the database, not the record.
	 */
	static boolean databaseUnreachable(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof CannotCreateTransactionException || cause instanceof DataAccessResourceFailureException
					|| cause instanceof TransientDataAccessException
					|| cause instanceof RecoverableDataAccessException) {
				return true;
			}
		}
		return false;
	}

	private static Throwable rootCause(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null && cause.getCause() != cause) {
			cause = cause.getCause();
		}
		return cause;
	}

}
