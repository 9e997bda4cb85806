package io.kindling.swipe.bloom;

import io.kindling.redis.bloom.BitmapBloomFilter;
import io.kindling.redis.bloom.BloomCapability;
import io.kindling.redis.bloom.BloomKeys;
import io.kindling.redis.bloom.BloomSpec;
import io.kindling.redis.bloom.BucketedBloomFilter;
import io.kindling.redis.bloom.ModuleBloomFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
	BucketedBloomFilter swipeHistoryBloomFilter(BloomProperties properties, JedisConnectionFactory connectionFactory,
			StringRedisTemplate redis) {
		boolean module = switch (properties.mode()) {
			case MODULE -> true;
			case BITMAP -> false;
			case AUTO -> BloomCapability.moduleLoaded(connectionFactory);
		};
		BloomSpec spec = new BloomSpec(properties.capacity(), properties.errorRate());
		BucketedBloomFilter filter = module ? new ModuleBloomFilter(redis, KEYS, spec)
				: new BitmapBloomFilter(redis, KEYS, spec);
		log.info(
				"swipe history filter: {} (mode setting {}), {} swipes per bucket at error rate {}, {} bits and {} hashes per bucket",
				filter.mode(), properties.mode(), spec.capacity(), spec.errorRate(), spec.bits(), spec.hashes());
		return filter;
	}

}
