package io.kindling.redis.bloom;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Measured false-positive rates on a real Redis. The bitmap filter is always tested; the
 * RedisBloom filter whenever the Redis has the module ({@code KINDLING_REDIS_MODULE} or
 * {@code KINDLING_REDIS_SERVER} pointing at Redis 8).
 */
@RealServers(Server.REDIS)
class BloomFilterIT {

	private static final BloomSpec SPEC = new BloomSpec(5_000, 0.01);

	private static final int PROBES = 60_000;

	/** Items are user ids, as in the swipe history filter. */
	private static final long MEMBERS = 1_000_000;

	private static final long STRANGERS = 50_000_000;

	private static JedisConnectionFactory connectionFactory;

	private static StringRedisTemplate redis;

	@BeforeAll
	static void connect() {
		connectionFactory = TestRedis.standalone();
		redis = new StringRedisTemplate(connectionFactory);
	}

	@AfterAll
	static void disconnect() {
		connectionFactory.destroy();
	}

	static Stream<String> modes() {
		return Stream.of("bitmap", "module");
	}

	private static BucketedBloomFilter filter(String mode, BloomSpec spec) {
		if (mode.equals("module")) {
			Assumptions.assumeTrue(BloomCapability.moduleLoaded(connectionFactory),
					"no RedisBloom: set KINDLING_REDIS_MODULE or KINDLING_REDIS_SERVER to test the module path");
			return new ModuleBloomFilter(redis, new BloomKeys("test_bf_" + mode), spec);
		}
		return new BitmapBloomFilter(redis, new BloomKeys("test_bf_" + mode), spec);
	}

	@ParameterizedTest
	@MethodSource("modes")
	void falsePositiveRateAtDesignCapacityIsWithinTwentyPercentOfTheConfiguredRate(String mode) {
		BucketedBloomFilter filter = filter(mode, SPEC);
		String owner = "capacity";
		filter.drop(owner);
		filter.open(owner);
		assertThat(filter.add(owner, items(MEMBERS, 0, (int) SPEC.capacity()))).isTrue();

		assertThat(filter.buckets(owner)).isEqualTo(1);
		assertNoFalseNegatives(filter, owner, items(MEMBERS, 0, (int) SPEC.capacity()));
		double rate = falsePositiveRate(filter, owner);
		assertThat(rate).as("false-positive rate at capacity")
			.isCloseTo(SPEC.errorRate(), within(0.2 * SPEC.errorRate()));
		// a full bucket costs its bitmap (9.6 bits per item at 1 %) plus key overhead
		assertThat(filter.memoryBytes(owner)).isBetween(SPEC.bits() / 8, SPEC.bits() / 8 + 1024);
	}

	@ParameterizedTest
	@MethodSource("modes")
	void rotationKeepsEveryBucketAtItsRateAtThreeTimesCapacity(String mode) {
		BucketedBloomFilter filter = filter(mode, SPEC);
		String owner = "rotation";
		filter.drop(owner);
		filter.open(owner);
		int total = 3 * (int) SPEC.capacity();
		// added in small batches, as swipes arrive
		for (int from = 0; from < total; from += 250) {
			filter.add(owner, items(MEMBERS, from, 250));
		}

		assertThat(filter.buckets(owner)).isEqualTo(3);
		assertNoFalseNegatives(filter, owner, items(MEMBERS, 0, total));
		// three buckets each at p answer a non-member wrongly with 1-(1-p)^3; one
		// bitmap holding 3x its capacity would answer wrongly ~44 % of the time
		double chained = 1 - Math.pow(1 - SPEC.errorRate(), 3);
		double rate = falsePositiveRate(filter, owner);
		assertThat(rate).as("false-positive rate over three buckets").isCloseTo(chained, within(0.2 * chained));
		assertThat(filter.memoryBytes(owner)).isGreaterThan(3 * SPEC.bits() / 8);
	}

	@ParameterizedTest
	@MethodSource("modes")
	void aMissingFilterAnswersNullAndAddsNothingUntilOpened(String mode) {
		BucketedBloomFilter filter = filter(mode, SPEC);
		String owner = "missing";
		filter.drop(owner);

		assertThat(filter.mightContain(owner, List.of("1"))).isNull();
		assertThat(filter.add(owner, List.of("1"))).isFalse();
		assertThat(filter.count(owner)).isEqualTo(-1);

		assertThat(filter.open(owner)).isTrue();
		assertThat(filter.open(owner)).isFalse();
		assertThat(filter.mightContain(owner, List.of("1"))).containsExactly(false);
		assertThat(filter.add(owner, List.of("1"))).isTrue();
		assertThat(filter.mightContain(owner, List.of("1", "2"))).containsExactly(true, false);
	}

	private static void assertNoFalseNegatives(BucketedBloomFilter filter, String owner, List<String> members) {
		boolean[] found = filter.mightContain(owner, members);
		assertThat(found).isNotNull();
		for (int i = 0; i < found.length; i++) {
			assertThat(found[i]).as(members.get(i)).isTrue();
		}
	}

	private static double falsePositiveRate(BucketedBloomFilter filter, String owner) {
		boolean[] found = filter.mightContain(owner, items(STRANGERS, 0, PROBES));
		assertThat(found).isNotNull();
		long positives = IntStream.range(0, found.length).filter((i) -> found[i]).count();
		double rate = (double) positives / PROBES;
		System.out.printf("%s filter %s: %d buckets, false-positive rate %.4f over %d non-members%n", filter.mode(),
				owner, filter.buckets(owner), rate, PROBES);
		return rate;
	}

	private static List<String> items(long base, int from, int count) {
		List<String> items = new ArrayList<>(count);
		for (int i = from; i < from + count; i++) {
			items.add(String.valueOf(base + i));
		}
		return items;
	}

}
