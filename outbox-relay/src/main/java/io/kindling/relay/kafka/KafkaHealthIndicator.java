package io.kindling.relay.kafka;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;

/**
 * {@code kafka} in {@code /actuator/health}: up when the cluster answers in 2 s, with its
 * live brokers and whether each topic is created or checked.
 */
@Component("kafka")
class KafkaHealthIndicator extends AbstractHealthIndicator implements DisposableBean {

	private final Admin admin;

	private final KafkaTopics topics;

	KafkaHealthIndicator(KafkaProperties kafka, KafkaTopics topics) {
		super("Kafka health check failed");
		Map<String, Object> config = new HashMap<>(kafka.buildAdminProperties());
		config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
		config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000);
		this.admin = Admin.create(config);
		this.topics = topics;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		DescribeClusterResult cluster = this.admin.describeCluster(new DescribeClusterOptions().timeoutMs(2000));
		Collection<Node> nodes = cluster.nodes().get(2, TimeUnit.SECONDS);
		builder.withDetail("cluster_id", cluster.clusterId().get(2, TimeUnit.SECONDS))
			.withDetail("nodes", nodes.size())
			.withDetail("topics", this.topics.states());
		if (nodes.isEmpty()) {
			builder.down();
		}
		else {
			builder.up();
		}
	}

	@Override
	public void destroy() {
		this.admin.close();
	}

}
