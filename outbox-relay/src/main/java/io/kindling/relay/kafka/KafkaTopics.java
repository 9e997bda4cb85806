package io.kindling.relay.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kindling.relay.RelayProperties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Creates the relay's topics with the partitions, replication factor and
 * {@code min.insync.replicas} of {@code kindling.relay.topics}, before the relay
 * publishes (a lower lifecycle phase than the publishing workers). A topic that exists is
 * left as it is, and each difference from the settings is logged: changing partitions
 * would move keys between partitions, and replicas are an operator's decision.
 *
 * <p>
 * A start-up that cannot reach Kafka goes on, and {@link #ensure} tries again before the
 * first record of each topic is sent, so no record ever goes to a topic the relay has not
 * created or checked. Settings Kafka refuses (3 replicas on one broker) stop the
 * start-up.
 */
@Component
public class KafkaTopics implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(KafkaTopics.class);

	private final Map<String, Object> adminConfig;

	/** Each Kafka call here gives up after this long. */
	private final int timeoutMs;

	private final RelayProperties.Topics settings;

	private final List<String> topics;

	/** Topics created or checked: records may go to them. */
	private final Set<String> ready = ConcurrentHashMap.newKeySet();

	private volatile boolean running;

	@Autowired
	KafkaTopics(KafkaProperties kafka, RelayProperties relay) {
		// as long as a send may wait for metadata (max.block.ms)
		this(kafka.buildAdminProperties(), relay.topics(),
				relay.sources().stream().map(RelayProperties.Source::topic).distinct().toList(), Duration.ofSeconds(5));
	}

	KafkaTopics(Map<String, Object> adminConfig, RelayProperties.Topics settings, List<String> topics,
			Duration timeout) {
		this.timeoutMs = (int) timeout.toMillis();
		Map<String, Object> config = new HashMap<>(adminConfig);
		config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, this.timeoutMs);
		config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, this.timeoutMs);
		this.adminConfig = Map.copyOf(config);
		this.settings = settings;
		this.topics = List.copyOf(topics);
	}

	@Override
	public void start() {
		for (String topic : this.topics) {
			try {
				check(topic);
			}
			catch (TopicNotReady ex) {
				log.warn("Could not create or check topic {} at start-up ({}); trying again before its first record",
						topic, ex.getMessage());
			}
			catch (TopicRefused ex) {
				throw new IllegalStateException(ex.getMessage(), ex);
			}
		}
		this.running = true;
	}

	/**
	 * Whether records may go to the topic now: created or checked, at start-up or here. A
	 * topic not yet ready is tried once more (a Kafka call of up to 5 s).
	 * @throws TopicNotReady when Kafka did not answer or refused; the caller backs off
	 * and tries again, as when Kafka is unreachable
	 */
	void ensure(String topic) {
		if (this.ready.contains(topic)) {
			return;
		}
		synchronized (this) {
			if (this.ready.contains(topic)) {
				return;
			}
			try {
				check(topic);
			}
			catch (TopicRefused ex) {
				log.error(ex.getMessage());
				throw new TopicNotReady(topic, ex.getMessage());
			}
		}
	}

	/** Each topic and whether the relay has created or checked it. */
	Map<String, String> states() {
		Map<String, String> states = new TreeMap<>();
		this.topics.forEach((topic) -> states.put(topic, this.ready.contains(topic) ? "ready" : "not checked yet"));
		return states;
	}

	/**
	 * Creates the topic, or compares the existing one with the settings.
	 * @throws TopicNotReady when Kafka did not answer in time
	 * @throws TopicRefused when Kafka refused to create it as asked
	 */
	TopicCheck check(String topic) {
		try (Admin admin = Admin.create(this.adminConfig)) {
			TopicCheck check = create(admin, topic) ? new TopicCheck(topic, true, List.of())
					: new TopicCheck(topic, false, differences(admin, topic));
			if (check.created()) {
				log.info("Created topic {}: {} partitions, replication factor {}, min.insync.replicas {}", topic,
						this.settings.partitions(), this.settings.replicationFactor(),
						this.settings.minInsyncReplicas());
			}
			else if (!check.differences().isEmpty()) {
				log.warn("Topic {} exists and differs from kindling.relay.topics: {}; left as it is", topic,
						String.join(", ", check.differences()));
			}
			this.ready.add(topic);
			return check;
		}
	}

	private boolean create(Admin admin, String topic) {
		NewTopic wanted = new NewTopic(topic, this.settings.partitions(), this.settings.replicationFactor()).configs(
				Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(this.settings.minInsyncReplicas())));
		try {
			admin.createTopics(List.of(wanted)).all().get(this.timeoutMs, TimeUnit.MILLISECONDS);
			return true;
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof TopicExistsException) {
				return false;
			}
			throw failure(topic, "create", ex.getCause());
		}
		catch (TimeoutException ex) {
			throw new TopicNotReady(topic, "no answer from Kafka in " + this.timeoutMs + " ms");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new TopicNotReady(topic, "interrupted");
		}
	}

	private List<String> differences(Admin admin, String topic) {
		ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
		TopicDescription description;
		Config config;
		try {
			description = admin.describeTopics(List.of(topic))
				.allTopicNames()
				.get(this.timeoutMs, TimeUnit.MILLISECONDS)
				.get(topic);
			config = admin.describeConfigs(List.of(resource))
				.all()
				.get(this.timeoutMs, TimeUnit.MILLISECONDS)
				.get(resource);
		}
		catch (ExecutionException ex) {
			throw failure(topic, "describe", ex.getCause());
		}
		catch (TimeoutException ex) {
			throw new TopicNotReady(topic, "no answer from Kafka in " + this.timeoutMs + " ms");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new TopicNotReady(topic, "interrupted");
		}
		List<String> differences = new ArrayList<>();
		int partitions = description.partitions().size();
		if (partitions != this.settings.partitions()) {
			differences.add("partitions " + partitions + ", not " + this.settings.partitions());
		}
		int fewestReplicas = description.partitions()
			.stream()
			.mapToInt((partition) -> partition.replicas().size())
			.min()
			.orElse(0);
		if (fewestReplicas != this.settings.replicationFactor()) {
			differences.add("replication factor " + fewestReplicas + ", not " + this.settings.replicationFactor());
		}
		ConfigEntry entry = config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
		int minInsync = (entry != null && entry.value() != null) ? Integer.parseInt(entry.value()) : 1;
		if (minInsync > fewestReplicas) {
			differences.add("min.insync.replicas " + minInsync + " is more than its " + fewestReplicas
					+ " replicas: no record can be acknowledged");
		}
		else if (minInsync != this.settings.minInsyncReplicas()) {
			differences.add("min.insync.replicas " + minInsync + ", not " + this.settings.minInsyncReplicas());
		}
		return differences;
	}

	private static RuntimeException failure(String topic, String action, Throwable cause) {
		if (cause instanceof RetriableException) {
			return new TopicNotReady(topic, cause.toString());
		}
		return new TopicRefused("Kafka refused to " + action + " topic " + topic + ": " + cause, cause);
	}

	/** Created or checked at start-up, so before the publishing workers start. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 1;
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * What start-up or a later try found.
	 *
	 * @param topic the topic
	 * @param created whether the relay created it now
	 * @param differences how an existing topic differs from the settings, one phrase each
	 */
	record TopicCheck(String topic, boolean created, List<String> differences) {
	}

	/** Kafka refused the topic as asked: settings to fix, not an outage to wait out. */
	static final class TopicRefused extends RuntimeException {

		TopicRefused(String message, Throwable cause) {
			super(message, cause);
		}

	}

	/**
	 * The topic is not created or checked yet; retriable, so the relay backs off as when
	 * Kafka is unreachable and its rows wait.
	 */
	static final class TopicNotReady extends RetriableException {

		TopicNotReady(String topic, String reason) {
			super("topic " + topic + " is not ready: " + reason);
		}

	}

}
