package io.kindling.relay.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.kafka.KafkaCluster;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.relay.RelayProperties;
import io.kindling.relay.kafka.KafkaTopics.TopicCheck;
import io.kindling.relay.kafka.KafkaTopics.TopicNotReady;
import jakarta.validation.Validation;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The relay makes its topics on a three-broker cluster with the replication it is told,
 * leaves existing ones alone, and refuses to start on settings Kafka refuses.
 */
@RealServers(Server.KAFKA_CLUSTER)
class KafkaTopicsIT {

	static final RelayProperties.Topics REPLICATED = new RelayProperties.Topics(12, (short) 3, 2);

	@Test
	void aMissingTopicIsCreatedWithThePartitionsReplicationFactorAndMinInsyncReplicasOfTheSettings() throws Exception {
		KafkaTopics topics = topics(REPLICATED, "topics.created");
		assertThat(topics.states()).containsEntry("topics.created", "not checked yet");

		topics.start();

		assertThat(topics.states()).containsEntry("topics.created", "ready");
		TopicDescription description = cluster().describe("topics.created");
		assertThat(description.partitions()).hasSize(12)
			.allSatisfy((partition) -> assertThat(partition.replicas()).hasSize(3));
		ConfigEntry minInsync = topicConfig("topics.created", "min.insync.replicas");
		assertThat(minInsync.value()).isEqualTo("2");
		// set on the topic by the relay, not inherited from the broker's default
		assertThat(minInsync.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
		// a second relay starting finds it as it wants it
		assertThat(topics(REPLICATED, "topics.created").check("topics.created"))
			.isEqualTo(new TopicCheck("topics.created", false, List.of()));
	}

	@Test
	void anExistingTopicIsLeftAsItIsAndEachDifferenceIsReported() throws Exception {
		try (Admin admin = cluster().admin()) {
			admin.createTopics(
					List.of(new NewTopic("topics.existing", 6, (short) 1).configs(Map.of("min.insync.replicas", "1")),
							new NewTopic("topics.starved", 12, (short) 1)))
				.all()
				.get(30, TimeUnit.SECONDS);
		}

		// a topic just created may be unknown to the broker asked first: not ready yet,
		// which the relay backs off from, as this waits
		TopicCheck existing = checkOnceReady("topics.existing");
		// the cluster's default min.insync.replicas (2) is more than this topic has
		// replicas
		TopicCheck starved = checkOnceReady("topics.starved");

		assertThat(existing.created()).isFalse();
		assertThat(existing.differences()).containsExactly("partitions 6, not 12", "replication factor 1, not 3",
				"min.insync.replicas 1, not 2");
		assertThat(starved.differences()).containsExactly("replication factor 1, not 3",
				"min.insync.replicas 2 is more than its 1 replicas: no record can be acknowledged");
		TopicDescription description = cluster().describe("topics.existing");
		assertThat(description.partitions()).hasSize(6)
			.allSatisfy((partition) -> assertThat(partition.replicas()).hasSize(1));
		assertThat(topicConfig("topics.existing", "min.insync.replicas").value()).isEqualTo("1");
	}

	@Test
	void settingsKafkaRefusesStopTheStartUpAndCreateNothing() {
		KafkaTopics fourReplicas = topics(new RelayProperties.Topics(12, (short) 4, 2), "topics.refused");

		assertThatThrownBy(fourReplicas::start).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("topics.refused")
			.hasMessageContaining("InvalidReplicationFactorException");
		assertThat(cluster().liveBrokers()).hasSize(3);
		try (Admin admin = cluster().admin()) {
			assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).doesNotContain("topics.refused");
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void aTopicKafkaCouldNotBeAskedAboutHoldsBackItsRecordsAsARetriableFailure() {
		int nobody = FreePorts.pick();
		KafkaTopics unreachable = new KafkaTopics(
				Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + nobody), REPLICATED,
				List.of("topics.unreachable"), Duration.ofSeconds(1));

		// the start-up goes on without Kafka
		unreachable.start();
		assertThat(unreachable.states()).containsEntry("topics.unreachable", "not checked yet");

		assertThatThrownBy(() -> unreachable.ensure("topics.unreachable")).isInstanceOf(TopicNotReady.class)
			.satisfies((failure) -> assertThat(KafkaPublisher.isTransient(failure)).isTrue());
	}

	@Test
	void moreInSyncReplicasThanReplicasIsRefusedAsASetting() {
		var validator = Validation.buildDefaultValidatorFactory().getValidator();

		assertThat(validator.validate(new RelayProperties.Topics(12, (short) 1, 2)))
			.extracting((violation) -> violation.getMessage())
			.containsExactly("min-insync-replicas must not exceed replication-factor");
		assertThat(validator.validate(REPLICATED)).isEmpty();
	}

	private static TopicCheck checkOnceReady(String topic) {
		return await().atMost(Duration.ofSeconds(30))
			.ignoreException(TopicNotReady.class)
			.until(() -> topics(REPLICATED, topic).check(topic), (check) -> true);
	}

	private static KafkaTopics topics(RelayProperties.Topics settings, String topic) {
		return new KafkaTopics(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster().bootstrapServers()),
				settings, List.of(topic), Duration.ofSeconds(5));
	}

	private static ConfigEntry topicConfig(String topic, String name) throws Exception {
		ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
		try (Admin admin = cluster().admin()) {
			return admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource).get(name);
		}
	}

	private static KafkaCluster cluster() {
		return RealServersExtension.kafkaCluster();
	}

}
