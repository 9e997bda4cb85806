package io.kindling.swipe.bloom;

import io.kindling.redis.bloom.BitmapBloomFilter;
import io.kindling.redis.bloom.BloomCapability;
import io.kindling.redis.bloom.BloomKeys;
import io.kindling.redis.bloom.BloomSpec;
import io.kindling.redis.bloom.BucketedBloomFilter;
import io.kindling.redis.bloom.ModuleBloomFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Picks the swipe history filter at start-up: RedisBloom when {@code BF.RESERVE} exists
 * (or {@code mode=module}), plain bitmaps otherwise (or {@code mode=bitmap}).
 */
@Configuration(proxyBeanMethods = false)
class BloomConfiguration {

	private static final Logger log = LoggerFactory.getLogger(BloomConfiguration.class);

	static final BloomKeys KEYS = new BloomKeys("swiped_bf");

	@Bean
	ModuleClient bloomModuleClient(BloomProperties properties, JedisConnectionFactory connectionFactory) {
		BloomProperties.Mode mode = properties.mode();
		boolean module = switch (mode) {
			case MODULE -> true;
			case BITMAP -> false;
			case AUTO -> BloomCapability.moduleLoaded(connectionFactory);
		};
		if (!module) {
			return new ModuleClient(null);
		}
		DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
			.timeoutMillis((int) connectionFactory.getTimeout());
		if (connectionFactory.getPassword() != null) {
			config.password(connectionFactory.getPassword());
		}
		return new ModuleClient(new JedisPooled(
				new HostAndPort(connectionFactory.getHostName(), connectionFactory.getPort()), config.build()));
	}

	@Bean
	BucketedBloomFilter swipeHistoryBloomFilter(BloomProperties properties, ModuleClient moduleClient,
			StringRedisTemplate redis) {
		BloomSpec spec = new BloomSpec(properties.capacity(), properties.errorRate());
		BucketedBloomFilter filter = (moduleClient.jedis() != null)
				? new ModuleBloomFilter(moduleClient.jedis(), KEYS, spec) : new BitmapBloomFilter(redis, KEYS, spec);
		log.info(
				"swipe history filter: {} (mode setting {}), {} swipes per bucket at error rate {}, {} bits and {} hashes per bucket",
				filter.mode(), properties.mode(), spec.capacity(), spec.errorRate(), spec.bits(), spec.hashes());
		return filter;
	}

	/** The Jedis client for RedisBloom's commands, present only in module mode. */
	record ModuleClient(@org.jspecify.annotations.Nullable JedisPooled jedis) implements DisposableBean {

		@Override
		public void destroy() {
			if (this.jedis != null) {
				this.jedis.close();
			}
		}

	}

}
