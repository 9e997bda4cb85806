package io.kindling.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The token bucket on a real Redis, with time given by the test. */
@RealServers(Server.REDIS)
class TokenBucketIT {

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

	@Test
	void aBurstIsTakenAtOnceThenTokensComeBackAtTheRate() {
		TokenBucket bucket = new TokenBucket(redis, 5, 10);
		String key = "test_bucket:" + UUID.randomUUID();
		long now = 1_000_000;
		for (int i = 0; i < 10; i++) {
			assertThat(bucket.take(key, now).taken()).as("token %d of the burst", i + 1).isTrue();
		}
		TokenBucket.Taken refused = bucket.take(key, now);
		assertThat(refused.taken()).isFalse();
		assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(200));
		assertThat(refused.retryAfterSeconds()).isOne();

		// a fifth of a second brings one token back, no more
		assertThat(bucket.take(key, now + 199).taken()).isFalse();
		assertThat(bucket.take(key, now + 200).taken()).isTrue();
		assertThat(bucket.take(key, now + 200).taken()).isFalse();
		// a long pause fills the bucket to its burst, not beyond
		long later = now + 60_000;
		for (int i = 0; i < 10; i++) {
			assertThat(bucket.take(key, later).taken()).isTrue();
		}
		assertThat(bucket.take(key, later).taken()).isFalse();
	}

	@Test
	void bucketsOfOtherKeysAreApartAndAFullBucketExpires() {
		TokenBucket bucket = new TokenBucket(redis, 1, 1);
		String ana = "test_bucket:" + UUID.randomUUID();
		String ben = "test_bucket:" + UUID.randomUUID();
		assertThat(bucket.take(ana, 5_000).taken()).isTrue();
		assertThat(bucket.take(ana, 5_000).taken()).isFalse();
		assertThat(bucket.take(ben, 5_000).taken()).isTrue();
		// kept only as long as it takes to fill again, plus a second
		assertThat(redis.getExpire(ana)).isBetween(1L, 2L);
	}

	@Test
	void manyBucketsAreTakenFromInOneCallInOrder() {
		TokenBucket bucket = new TokenBucket(redis, 1, 2);
		String ana = "test_bucket:{" + UUID.randomUUID() + "}";
		String ben = "test_bucket:{" + UUID.randomUUID() + "}";
		assertThat(bucket.take(ben, 5_000).taken()).isTrue();

		List<TokenBucket.Taken> taken = bucket.takeAll(List.of(ana, ben, ana, ben, ana), 5_000);

		assertThat(taken).extracting(TokenBucket.Taken::taken).containsExactly(true, true, true, false, false);
		assertThat(taken.get(4).retryAfter()).isEqualTo(Duration.ofSeconds(1));
		// each call counted once: a second later each bucket has one token again
		assertThat(bucket.takeAll(List.of(ana, ana, ben, ben), 6_000)).extracting(TokenBucket.Taken::taken)
			.containsExactly(true, false, true, false);
	}

	@Test
	void aPipelineRunsAScriptTheServerForgotAgainAndThrowsAnyOtherError() {
		TokenBucket bucket = new TokenBucket(redis, 1, 2);
		String ana = "test_bucket:{" + UUID.randomUUID() + "}";
		String ben = "test_bucket:{" + UUID.randomUUID() + "}";
		assertThat(bucket.takeAll(List.of(ana, ben), 5_000)).extracting(TokenBucket.Taken::taken)
			.containsExactly(true, true);
		// what a promoted replica knows of the scripts: nothing
		redis.execute((RedisCallback<Void>) (connection) -> {
			connection.scriptingCommands().scriptFlush();
			return null;
		});
		assertThat(redis.execute((RedisCallback<List<Boolean>>) (connection) -> connection.scriptingCommands()
			.scriptExists(LuaScript.load("token_bucket", Long.class).sha1()))).containsExactly(false);

		assertThat(bucket.takeAll(List.of(ana, ben, ana), 5_000)).extracting(TokenBucket.Taken::taken)
			.containsExactly(true, true, false);

		String notABucket = "test_bucket:{" + UUID.randomUUID() + "}";
		redis.opsForList().leftPush(notABucket, "x");
		assertThatExceptionOfType(DataAccessException.class)
			.isThrownBy(() -> bucket.takeAll(List.of(ana, notABucket), 6_000))
			.withMessageContaining("WRONGTYPE");
		// the pipeline's connection went back to the pool with nothing left unread
		assertThat(bucket.takeAll(List.of(ben, ben), 6_000)).extracting(TokenBucket.Taken::taken)
			.containsExactly(true, false);
	}

	@Test
	void aClockBehindTheBucketsOwnRefillsNothingAndTakesNothingBack() {
		TokenBucket bucket = new TokenBucket(redis, 1, 2);
		String key = "test_bucket:" + UUID.randomUUID();
		assertThat(bucket.take(key, 10_000).taken()).isTrue();
		assertThat(bucket.take(key, 10_000).taken()).isTrue();
		// another instance's clock, a second behind
		assertThat(bucket.take(key, 9_000).taken()).isFalse();
		assertThat(bucket.take(key, 11_000).taken()).isTrue();
	}

}
