package io.kindling.relay.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.kindling.relay.RelayProperties;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.core.ResolvableType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The producers' lanes, on producers made in memory (no Kafka): each lane keeps its own
 * producer, a broken one is replaced in its lane alone, and the settings that keep
 * per-key order reach every producer whatever the Kafka properties say.
 */
class KafkaPublisherTests {

	private final List<MockProducer<String, byte[]>> made = new ArrayList<>();

	private final List<Map<String, Object>> configs = new ArrayList<>();

	/**
	 * A class that declares its types, as a bean the relay takes must (a lambda's are
	 * erased, so the relay would not see it as a maker of its producers).
	 */
	private final class Maker implements Function<Map<String, Object>, Producer<String, byte[]>> {

		@Override
		public Producer<String, byte[]> apply(Map<String, Object> config) {
			KafkaPublisherTests.this.configs.add(config);
			MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
					new ByteArraySerializer());
			KafkaPublisherTests.this.made.add(producer);
			return producer;
		}

	}

	@Test
	void eachLaneKeepsAProducerOfItsOwn() {
		KafkaPublisher publisher = publisher(Map.of());

		publisher.session(0);
		publisher.session(0);
		assertThat(this.made).as("lane 0 twice").hasSize(1);
		publisher.session(1);
		assertThat(this.made).as("then lane 1").hasSize(2);
		publisher.session(1);
		publisher.session(0);
		assertThat(this.made).hasSize(2);
	}

	@Test
	void aBrokenProducerIsReplacedInItsLaneAlone() {
		KafkaPublisher publisher = publisher(Map.of());
		KafkaPublisher.Session first = publisher.session(0);
		KafkaPublisher.Session other = publisher.session(1);

		first.failed(new OutOfOrderSequenceException("bounced"));

		assertThat(this.made.get(0).closed()).as("lane 0's producer closed").isTrue();
		assertThat(this.made.get(1).closed()).as("lane 1's producer").isFalse();
		assertThat(first.isTransient(new RecordTooLargeException("too large")))
			.as("a record its replaced producer failed is no fault of its row")
			.isTrue();
		assertThat(other.isTransient(new RecordTooLargeException("too large"))).isFalse();
		publisher.session(1);
		assertThat(this.made).as("lane 1 keeps its producer").hasSize(2);
		publisher.session(0);
		assertThat(this.made).as("lane 0 gets a new one").hasSize(3);
	}

	@Test
	void everyProducerHasOneRequestInFlightWhateverTheKafkaPropertiesSay() {
		KafkaPublisher publisher = publisher(Map.of("max.in.flight.requests.per.connection", "5", "acks", "1",
				"enable.idempotence", "false", "delivery.timeout.ms", "1000"));

		publisher.session(0);
		publisher.session(1);

		assertThat(this.configs).hasSize(2).allSatisfy((config) -> {
			assertThat(config).containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1)
				.containsEntry(ProducerConfig.ACKS_CONFIG, "all")
				.containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true)
				.containsEntry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
		});
	}

	private KafkaPublisher publisher(Map<String, String> producerProperties) {
		RelayProperties relay = new Binder(new MapConfigurationPropertySource(Map.of("kindling.relay.sources[0].name",
				"matches", "kindling.relay.sources[0].url", "jdbc:mysql://127.0.0.1:1/none",
				"kindling.relay.sources[0].table", "match_outbox", "kindling.relay.sources[0].topic", "matches")))
			.bind("kindling.relay", RelayProperties.class)
			.get();
		KafkaProperties kafka = new KafkaProperties();
		kafka.getProducer().getProperties().putAll(producerProperties);
		KafkaTopics topics = new KafkaTopics(Map.of("bootstrap.servers", "127.0.0.1:1"), relay.topics(),
				List.of("matches"), Duration.ofSeconds(1));
		StaticListableBeanFactory beans = new StaticListableBeanFactory(Map.of("maker", new Maker()));
		ObjectProvider<Function<Map<String, Object>, Producer<String, byte[]>>> makers = beans
			.getBeanProvider(ResolvableType.forClassWithGenerics(Function.class, Map.class, Producer.class));
		return new KafkaPublisher(kafka, relay, topics, makers);
	}

}
