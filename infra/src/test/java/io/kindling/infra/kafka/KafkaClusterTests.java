package io.kindling.infra.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three-node cluster of the harness is a real one: replicated topics, a leader that
 * dies with {@code kill -9} is replaced from the in-sync replicas, and the node comes
 * back.
 */
@RealServers(Server.KAFKA_CLUSTER)
class KafkaClusterTests {

	@Test
	void aRecordAcknowledgedByTheInSyncReplicasOutlivesTheKillOfItsLeaderAndTheNodeComesBack() throws Exception {
		KafkaCluster cluster = RealServersExtension.kafkaCluster();
		assertThat(cluster.liveBrokers()).containsExactly(1, 2, 3);
		assertThat(System.getProperty("spring.kafka.bootstrap-servers")).isEqualTo(cluster.bootstrapServers());
		String topic = "cluster.survivor";
		try (Admin admin = cluster.admin()) {
			// replication factor and min.insync.replicas left to the cluster's defaults
			admin.createTopics(List.of(new NewTopic(topic, 1, (short) 3))).all().get(30, TimeUnit.SECONDS);
		}
		FreePorts.await("a leader for " + topic, Duration.ofSeconds(30), () -> cluster.leaders(topic).get(0) > 0);
		assertThat(cluster.describe(topic).partitions().get(0).isr()).hasSize(3);
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(), ProducerConfig.ACKS_CONFIG,
						"all", ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
						ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
			producer.send(new ProducerRecord<>(topic, "12:34", "kept")).get(30, TimeUnit.SECONDS);
		}

		int leader = cluster.leaders(topic).get(0);
		long pid = cluster.node(leader).pid();
		cluster.kill(leader);

		assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("the leader's process").isEmpty();
		assertThat(FreePorts.isOpen(cluster.node(leader).port())).isFalse();
		Set<Integer> survivors = new java.util.TreeSet<>(Set.of(1, 2, 3));
		survivors.remove(leader);
		cluster.awaitBrokers(survivors, Duration.ofSeconds(30));
		FreePorts.await("a new leader for " + topic, Duration.ofSeconds(30),
				() -> survivors.contains(cluster.leaders(topic).get(0)));
		assertThat(cluster.describe(topic).partitions().get(0).isr()).hasSize(2)
			.noneMatch((node) -> node.id() == leader);
		assertThat(readAll(cluster.bootstrapServers(), topic)).containsExactly("kept");

		cluster.restart(leader);
		cluster.awaitFullyReplicated(Duration.ofSeconds(60));
		assertThat(cluster.liveBrokers()).containsExactly(1, 2, 3);
		assertThat(cluster.describe(topic).partitions().get(0).isr()).hasSize(3);
	}

	private static List<String> readAll(String bootstrapServers, String topic) {
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
				ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
				StringDeserializer.class, ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
			TopicPartition partition = new TopicPartition(topic, 0);
			consumer.assign(List.of(partition));
			consumer.seekToBeginning(List.of(partition));
			long end = consumer.endOffsets(List.of(partition), Duration.ofSeconds(10)).get(partition);
			List<String> values = new ArrayList<>();
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (consumer.position(partition, Duration.ofSeconds(10)) < end && System.nanoTime() < deadline) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					values.add(record.value());
				}
			}
			return values;
		}
	}

}
