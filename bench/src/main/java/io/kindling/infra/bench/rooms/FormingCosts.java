package io.kindling.infra.bench.rooms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Table;
import org.HdrHistogram.Histogram;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;

/**
 * The cost of forming a room with 100, 10,000 and 100,000 people waiting, in three
 * shapes: one queue ({@code form_room.lua} alone, {@link SingleTopicQueue}); the same
 * with a tenth of the queue recent partners of the entry ahead of them (the script then
 * looks past the two oldest); and people who each named 2 to 5 topics, formed from by a
 * join that names several too ({@link InterestQueues}: its reads of the queues' heads,
 * its join script and the popped entries' removal from their other queues). Each row is
 * the median of 5 rounds of 2,000 formings, the rounds alternating the shapes so that a
 * burst of other work on the machine hits them alike.
 */
final class FormingCosts {

	static final int[] DEPTHS = { 100, 10_000, 100_000 };

	private static final int ROUNDS = 5;

	private static final int CALLS = 2_000;

	/**
	 * People waiting, put into the bench's own keys (outside the services' set of active
	 * queues, so their sweepers never touch them), and rooms formed from them one after
	 * the other.
	 */
	abstract static class Shape {

		final UnifiedJedis jedis;

		final Scripts scripts;

		/** How many people wait. */
		final int depth;

		/**
		 * The next person's score: from two minutes ago, one ms after the last, so that
		 * none times out while measured and a joiner (scored now) comes after them all.
		 */
		private long nextScore = System.currentTimeMillis() - 120_000;

		Shape(UnifiedJedis jedis, Scripts scripts, int depth) {
			this.jedis = jedis;
			this.scripts = scripts;
			this.depth = depth;
		}

		/** The row's name. */
		abstract String label();

		/** Rows of one family have the first of them as their baseline. */
		abstract String family();

		/** Forms one room, timed; throws when none formed. */
		abstract void form();

		/** Puts one person in, waiting since {@code score}. */
		abstract void add(AbstractPipeline pipeline, long score);

		/** Puts the people in, untimed. */
		final void fill() {
			// closing a pooled client's pipeline gives its connection back
			try (AbstractPipeline pipeline = this.jedis.pipelined()) {
				for (int i = 0; i < this.depth; i++) {
					add(pipeline, this.nextScore++);
				}
			}
		}

		/**
		 * After a room, untimed: two people in for the two popped, so the depth holds.
		 */
		void refill() {
			try (AbstractPipeline pipeline = this.jedis.pipelined()) {
				add(pipeline, this.nextScore++);
				add(pipeline, this.nextScore++);
			}
		}

	}

	record FormCost(String label, String family, double p50Micros, double p99Micros) {

	}

	/** The scripts, as the service runs them: by SHA, loaded from its sources. */
	record Scripts(String formRoom, String join, String removeEntry) {

		static Scripts load(UnifiedJedis jedis, Path root) throws IOException {
			Path dir = root.resolve("matching-service/src/main/resources/scripts");
			String formRoom = Files.readString(dir.resolve("form_room.lua"));
			// as the service chains them: the entry goes in and the same script forms
			String join = Files.readString(dir.resolve("enqueue.lua")) + "\n" + formRoom + "\n";
			return new Scripts(jedis.scriptLoad(formRoom), jedis.scriptLoad(join),
					jedis.scriptLoad(Files.readString(dir.resolve("remove_entry.lua"))));
		}

	}

	private FormingCosts() {
	}

	static List<FormCost> measure(BenchStack stack) throws IOException {
		UnifiedJedis jedis = stack.redis().client();
		Scripts scripts = Scripts.load(jedis, stack.root());
		List<Shape> shapes = new ArrayList<>();
		for (boolean tenth : new boolean[] { false, true }) {
			for (int depth : DEPTHS) {
				shapes.add(new SingleTopicQueue(jedis, scripts, depth, tenth));
			}
		}
		for (int depth : DEPTHS) {
			shapes.add(new InterestQueues(jedis, scripts, depth));
		}
		shapes.forEach(Shape::fill);
		List<List<FormCost>> rounds = new ArrayList<>();
		for (int round = 0; round < ROUNDS; round++) {
			rounds.add(shapes.stream().map(FormingCosts::formCost).toList());
		}
		List<FormCost> costs = new ArrayList<>();
		for (int i = 0; i < shapes.size(); i++) {
			int index = i;
			List<FormCost> byP50 = rounds.stream()
				.map((round) -> round.get(index))
				.sorted(Comparator.comparingDouble(FormCost::p50Micros))
				.toList();
			costs.add(byP50.get(byP50.size() / 2));
		}
		return costs;
	}

	/**
	 * Adds a row per shape to the rooms bench's table, with its ratio to the first row of
	 * its family.
	 */
	static void addRows(Table table, List<FormCost> costs) {
		for (FormCost cost : costs) {
			FormCost base = costs.stream().filter((other) -> other.family().equals(cost.family())).findFirst().get();
			double ratio = cost.p50Micros() / base.p50Micros();
			table.row(cost.label() + ": p50 / p99", String.format("%.0f / %.0f µs", cost.p50Micros(), cost.p99Micros()),
					String.format("%.0f / %.0f µs", base.p50Micros(), base.p99Micros()),
					String.format("%.2f (≤ 1.20: %s)", ratio, (ratio <= 1.2) ? "met" : "not met"));
		}
	}

	/**
	 * The arguments of {@code form_room.lua} (and of the join that ends with it) for a
	 * room of two, as the service passes them with its default settings.
	 * @param lookFor the entry whose place to report ("" for none); a join's own entry
	 */
	static List<String> formArgs(long clock, String lookFor) {
		return List.of("2", String.valueOf(clock), String.valueOf(clock - 300_000), String.valueOf(clock - 60_000),
				String.valueOf(clock - 30_000), "500", lookFor, "64", String.valueOf(clock - 60_000));
	}

	/**
	 * Whether an answer of {@code form_room.lua} holds a room of two: {still waiting,
	 * fallback, place, rematch, timed out, then member, since, partners for each of the
	 * two popped}, nothing timed out.
	 */
	static boolean formedRoom(Object result) {
		return result instanceof List<?> list && list.size() >= 11;
	}

	private static FormCost formCost(Shape shape) {
		Histogram latency = new Histogram(60_000_000L, 3);
		for (int call = -200; call < CALLS; call++) {
			long start = System.nanoTime();
			shape.form();
			long micros = (System.nanoTime() - start) / 1_000;
			if (call >= 0) {
				latency.recordValue(Math.max(1, micros));
			}
			shape.refill();
		}
		return new FormCost(shape.label(), shape.family(), latency.getValueAtPercentile(50),
				latency.getValueAtPercentile(99));
	}

}
