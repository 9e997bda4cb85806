package io.kindling.redis.bloom;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.bloom.BFInsertParams;
import redis.clients.jedis.bloom.BFReserveParams;
import redis.clients.jedis.exceptions.JedisDataException;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A bucketed Bloom filter on RedisBloom ({@code BF.RESERVE}, {@code BF.INSERT},
 * {@code BF.MEXISTS}) through Jedis' Bloom API, on the connections of the application's
 * own Redis template. Buckets are reserved explicitly with the spec's capacity and error
 * rate and {@code NONSCALING}, because this class chains buckets itself; an insert into a
 * bucket that vanished recreates it with the same spec, never with the module's 100-item
 * default.
 */
public final class ModuleBloomFilter extends BloomKeysOnRedis {

	private final ClaimSlotsScript claimSlots;

	public ModuleBloomFilter(StringRedisTemplate redis, BloomKeys keys, BloomSpec spec) {
		super(redis, keys, spec);
		this.claimSlots = new ClaimSlotsScript(redis);
	}

	@Override
	public String mode() {
		return "module";
	}

	@Override
	public boolean add(String owner, List<String> items) {
		if (items.isEmpty()) {
			return count(owner) >= 0;
		}
		OptionalLong claimed = this.claimSlots.claim(this.keys.count(owner), items.size());
		if (claimed.isEmpty()) {
			return false;
		}
		long first = claimed.getAsLong();
		Map<Long, List<String>> byBucket = new LinkedHashMap<>();
		List<Long> started = new ArrayList<>();
		for (int i = 0; i < items.size(); i++) {
			long index = first + i;
			long bucket = this.spec.bucketOf(index);
			if (index % this.spec.capacity() == 0) {
				started.add(bucket);
			}
			byBucket.computeIfAbsent(bucket, (b) -> new ArrayList<>()).add(items.get(i));
		}
		BFInsertParams recreate = BFInsertParams.insertParams()
			.capacity(this.spec.capacity())
			.error(this.spec.errorRate())
			.nonScaling();
		pipelined((pipeline) -> {
			List<Response<String>> reservations = new ArrayList<>();
			for (long bucket : started) {
				reservations.add(pipeline.bfReserve(this.keys.bucket(owner, bucket), this.spec.errorRate(),
						this.spec.capacity(), BFReserveParams.reserveParams().nonScaling()));
			}
			List<Response<List<Boolean>>> inserts = new ArrayList<>();
			byBucket.forEach((bucket, bucketItems) -> inserts
				.add(pipeline.bfInsert(this.keys.bucket(owner, bucket), recreate, bucketItems.toArray(String[]::new))));
			pipeline.sync();
			for (Response<String> reservation : reservations) {
				try {
					reservation.get();
				}
				catch (JedisDataException ex) {
					// "item exists": a concurrent insert recreated it with the same spec
				}
			}
			inserts.forEach(Response::get);
			return null;
		});
		return true;
	}

	@Override
	public boolean @Nullable [] mightContain(String owner, List<String> items) {
		long count = count(owner);
		if (count < 0) {
			return null;
		}
		boolean[] found = new boolean[items.size()];
		long buckets = this.spec.bucketsFor(count);
		if (buckets == 0 || items.isEmpty()) {
			return found;
		}
		String[] candidates = items.toArray(String[]::new);
		List<Response<List<Boolean>>> answers = pipelined((pipeline) -> {
			List<Response<List<Boolean>>> sent = new ArrayList<>();
			for (long bucket = 0; bucket < buckets; bucket++) {
				sent.add(pipeline.bfMExists(this.keys.bucket(owner, bucket), candidates));
			}
			pipeline.sync();
			return sent;
		});
		for (Response<List<Boolean>> answer : answers) {
			List<Boolean> exists = answer.get();
			for (int i = 0; i < found.length; i++) {
				found[i] |= Boolean.TRUE.equals(exists.get(i));
			}
		}
		return found;
	}

	/**
	 * Runs Jedis' Bloom commands in one pipeline on a connection of the template: the
	 * module's commands are Jedis', not Spring's.
	 */
	private <T> T pipelined(Function<AbstractPipeline, T> commands) {
		return this.redis.execute((RedisCallback<T>) (connection) -> {
			Object client = connection.getNativeConnection();
			try (AbstractPipeline pipeline = switch (client) {
				case Jedis jedis -> jedis.pipelined();
				case UnifiedJedis jedis -> jedis.pipelined();
				default -> throw new IllegalStateException(
						"RedisBloom's commands need Jedis, not " + client.getClass().getName());
			}) {
				return commands.apply(pipeline);
			}
		});
	}

}
