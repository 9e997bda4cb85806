package io.kindling.infra.test;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.platform.commons.support.AnnotationSupport;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Puts a {@link RealServers} class's Redis mode in the key of Spring's test-context
 * cache. The connection settings are system properties, which that key does not see:
 * without this a cluster test class could silently get a context cached, connected to the
 * single server, by an earlier class of the same configuration.
 */
public final class RedisModeContextKey implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return AnnotationSupport.findAnnotation(testClass, RealServers.class)
			.filter((servers) -> List.of(servers.value()).contains(RealServers.Server.REDIS)
					|| List.of(servers.value()).contains(RealServers.Server.KAFKA_CLUSTER)
					|| List.of(servers.value()).contains(RealServers.Server.GALERA))
			.map((servers) -> new Key(
					List.of(servers.value()).contains(RealServers.Server.REDIS) ? servers.redis() : null,
					List.of(servers.value()).contains(RealServers.Server.KAFKA_CLUSTER),
					List.of(servers.value()).contains(RealServers.Server.GALERA)))
			.orElse(null);
	}

	/**
	 * Changes nothing in the context; only its equality matters. The Kafka cluster and
	 * the Galera cluster are in it for the same reason as the Redis mode.
	 */
	record Key(@Nullable RedisMode mode, boolean kafkaCluster, boolean galera) implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
		}

	}

}
