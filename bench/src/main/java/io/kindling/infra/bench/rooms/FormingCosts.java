package io.kindling.infra.bench.rooms;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Table;
import org.HdrHistogram.Histogram;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;

/**
 * The forming script's cost with 100, 10,000 and 100,000 tokens waiting in the queue it
 * pops from, and again with a tenth of the queue recent partners of the entry ahead of
 * them (the script then looks past the two oldest): each the median of 5 rounds of 2,000
 * calls, the rounds alternating the queues so that a burst of other work on the machine
 * hits them alike.
 */
final class FormingCosts {

	private static final int[] DEPTHS = { 100, 10_000, 100_000 };

	/** Scores from two minutes ago, one ms apart: none times out while measured. */
	private final long[] nextScore = { System.currentTimeMillis() - 120_000 };

	private final UnifiedJedis jedis;

	private final String sha;

	record FormCost(int depth, boolean tenthIncompatible, double p50Micros, double p99Micros) {

	}

	private FormingCosts(UnifiedJedis jedis, String sha) {
		this.jedis = jedis;
		this.sha = sha;
	}

	static List<FormCost> measure(BenchStack stack) throws IOException {
		UnifiedJedis jedis = stack.redis().client();
		Path script = stack.root().resolve("matching-service/src/main/resources/scripts/form_room.lua");
		return new FormingCosts(jedis, jedis.scriptLoad(Files.readString(script))).measure();
	}

	private List<FormCost> measure() {
		List<BenchQueue> queues = new ArrayList<>();
		for (boolean tenth : new boolean[] { false, true }) {
			for (int depth : DEPTHS) {
				BenchQueue queue = new BenchQueue(depth, tenth);
				// closing a pooled client's pipeline gives its connection back
				try (AbstractPipeline pipeline = this.jedis.pipelined()) {
					for (int i = 0; i < depth; i++) {
						queue.add(pipeline, this.nextScore);
					}
				}
				queues.add(queue);
			}
		}
		List<List<FormCost>> rounds = new ArrayList<>();
		for (int round = 0; round < 5; round++) {
			List<FormCost> thisRound = new ArrayList<>();
			for (BenchQueue queue : queues) {
				thisRound.add(formCost(queue, 2_000));
			}
			rounds.add(thisRound);
		}
		List<FormCost> costs = new ArrayList<>();
		for (int i = 0; i < queues.size(); i++) {
			int index = i;
			List<FormCost> byP50 = rounds.stream()
				.map((round) -> round.get(index))
				.sorted(Comparator.comparingDouble(FormCost::p50Micros))
				.toList();
			costs.add(byP50.get(byP50.size() / 2));
		}
		return costs;
	}

	/** Adds a row per queue to the rooms bench's table, with its ratio to the first. */
	static void addRows(Table table, List<FormCost> costs) {
		FormCost base = costs.get(0);
		for (FormCost cost : costs) {
			double ratio = cost.p50Micros() / base.p50Micros();
			table.row(
					String.format("form_room.lua, %,d waiting%s: p50 / p99", cost.depth(),
							cost.tenthIncompatible() ? ", 1/10 incompatible" : ""),
					String.format("%.0f / %.0f µs", cost.p50Micros(), cost.p99Micros()),
					String.format("%.0f / %.0f µs", base.p50Micros(), base.p99Micros()),
					String.format("%.2f (≤ 1.20: %s)", ratio, (ratio <= 1.2) ? "met" : "not met"));
		}
	}

	/** Runs form_room.lua, topping the queue up after each pop so its depth holds. */
	private FormCost formCost(BenchQueue queue, int calls) {
		Histogram latency = new Histogram(60_000_000L, 3);
		for (int call = -200; call < calls; call++) {
			long clock = System.currentTimeMillis();
			long start = System.nanoTime();
			Object result = this.jedis.evalsha(this.sha, queue.keys(),
					List.of("2", String.valueOf(clock), String.valueOf(clock - 300_000), String.valueOf(clock - 60_000),
							String.valueOf(clock - 30_000), "500", "", "64", String.valueOf(clock - 60_000)));
			long micros = (System.nanoTime() - start) / 1_000;
			if (call >= 0) {
				latency.recordValue(Math.max(1, micros));
			}
			// {still waiting, fallback, place, rematch, timed out, then member, since,
			// partners for each of the two popped}
			if (!(result instanceof List<?> list) || list.size() < 11) {
				throw new IllegalStateException("form_room.lua formed no room at depth " + queue.depth + ": " + result);
			}
			// topped up after each pop, untimed, so the depth holds
			try (AbstractPipeline refill = this.jedis.pipelined()) {
				queue.add(refill, this.nextScore);
				queue.add(refill, this.nextScore);
			}
		}
		return new FormCost(queue.depth, queue.tenthIncompatible, latency.getValueAtPercentile(50),
				latency.getValueAtPercentile(99));
	}

	/**
	 * A size-2 queue of the bench's own (outside the services' set of active queues, so
	 * their sweepers never touch it), with its popped records and its entries' recent
	 * partners. With a tenth incompatible, one entry in ten is a recent partner of the
	 * entry ahead of it, so a tenth of the pops find the two oldest unable to share a
	 * room and look further.
	 */
	private static final class BenchQueue {

		final int depth;

		final boolean tenthIncompatible;

		final String prefix;

		String lastToken = "";

		long added;

		BenchQueue(int depth, boolean tenthIncompatible) {
			this.depth = depth;
			this.tenthIncompatible = tenthIncompatible;
			this.prefix = "bench:" + depth + (tenthIncompatible ? ":tenth:" : ":plain:");
		}

		List<String> keys() {
			return List.of(this.prefix + "queue:1:2", this.prefix + "popped", this.prefix + "entry-partners");
		}

		void add(AbstractPipeline pipeline, long[] next) {
			String token = Long.toHexString(ThreadLocalRandom.current().nextLong()) + next[0];
			long score = next[0]++;
			// a queue's member is "<token>:<join id>"; the tokens' claims live in other
			// slots
			String member = token + ":" + Long.toHexString(score);
			pipeline.zadd(keys().get(0), score, member);
			if (this.tenthIncompatible && ++this.added % 10 == 0 && !this.lastToken.isEmpty()) {
				// as enqueue.lua stores a joiner's list: "<partner id>:<until ms>"
				pipeline.hset(keys().get(2), member,
						partnerId(this.lastToken) + ":" + (System.currentTimeMillis() + 3_600_000));
			}
			this.lastToken = token;
		}

	}

	/**
	 * As the service names a recent partner: the first 16 hex digits of its token's
	 * SHA-1.
	 */
	static String partnerId(String token) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-1").digest(token.getBytes(StandardCharsets.US_ASCII));
			return HexFormat.of().formatHex(digest, 0, 8);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
