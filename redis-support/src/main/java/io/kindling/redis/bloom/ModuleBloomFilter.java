package io.kindling.redis.bloom;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.bloom.BFInsertParams;
import redis.clients.jedis.bloom.BFReserveParams;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

import org.springframework.core.io.ClassPathResource;

/**
 * A bucketed Bloom filter on RedisBloom ({@code BF.RESERVE}, {@code BF.INSERT},
 * {@code BF.MEXISTS}) through Jedis' Bloom API. Buckets are reserved explicitly with the
 * spec's capacity and error rate and {@code NONSCALING}, because this class chains
 * buckets itself; an insert into a bucket that vanished recreates it with the same spec,
 * never with the module's 100-item default.
 */
public final class ModuleBloomFilter implements BucketedBloomFilter {

	private static final String CLAIM_SLOTS = script("bloom_claim_slots");

	private final UnifiedJedis jedis;

	private final BloomKeys keys;

	private final BloomSpec spec;

	public ModuleBloomFilter(UnifiedJedis jedis, BloomKeys keys, BloomSpec spec) {
		this.jedis = jedis;
		this.keys = keys;
		this.spec = spec;
	}

	@Override
	public String mode() {
		return "module";
	}

	@Override
	public BloomSpec spec() {
		return this.spec;
	}

	@Override
	public boolean open(String owner) {
		return "OK".equals(this.jedis.set(this.keys.count(owner), "0", SetParams.setParams().nx()));
	}

	@Override
	public boolean add(String owner, List<String> items) {
		if (items.isEmpty()) {
			return count(owner) >= 0;
		}
		Object claimed = this.jedis.eval(CLAIM_SLOTS, List.of(this.keys.count(owner)),
				List.of(String.valueOf(items.size())));
		long end = (claimed instanceof Long value) ? value : -1;
		if (end < 0) {
			return false;
		}
		long first = end - items.size();
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
		try (AbstractPipeline pipeline = this.jedis.pipelined()) {
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
		}
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
		List<Response<List<Boolean>>> answers = new ArrayList<>();
		try (AbstractPipeline pipeline = this.jedis.pipelined()) {
			for (long bucket = 0; bucket < buckets; bucket++) {
				answers.add(pipeline.bfMExists(this.keys.bucket(owner, bucket), candidates));
			}
			pipeline.sync();
		}
		for (Response<List<Boolean>> answer : answers) {
			List<Boolean> exists = answer.get();
			for (int i = 0; i < found.length; i++) {
				found[i] |= Boolean.TRUE.equals(exists.get(i));
			}
		}
		return found;
	}

	@Override
	public long count(String owner) {
		String count = this.jedis.get(this.keys.count(owner));
		return (count != null) ? Long.parseLong(count) : -1;
	}

	@Override
	public void drop(String owner) {
		long buckets = buckets(owner);
		List<String> names = new ArrayList<>();
		names.add(this.keys.count(owner));
		for (long b = 0; b < buckets; b++) {
			names.add(this.keys.bucket(owner, b));
		}
		this.jedis.del(names.toArray(String[]::new));
	}

	@Override
	public long memoryBytes(String owner) {
		long buckets = buckets(owner);
		long total = 0;
		Long countKey = this.jedis.memoryUsage(this.keys.count(owner));
		total += (countKey != null) ? countKey : 0;
		for (long b = 0; b < buckets; b++) {
			Long usage = this.jedis.memoryUsage(this.keys.bucket(owner, b));
			total += (usage != null) ? usage : 0;
		}
		return total;
	}

	private static String script(String name) {
		try {
			return new ClassPathResource("scripts/" + name + ".lua").getContentAsString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
