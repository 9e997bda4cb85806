package io.kindling.infra.bench.relay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Table;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.ServiceJar;
import org.HdrHistogram.Histogram;

import static io.kindling.infra.bench.Percentiles.ms;

/**
 * {@code ./kindling bench relay}: starts its own MariaDB, Kafka and an outbox-relay jar
 * on free ports and measures, beside a naive relay in this process ({@link NaiveRelay})
 * on a table of the same shape:
 * <ul>
 * <li>the sustained publish rate through a backlog of {@code --backlog} rows (200,000),
 * read from the topic's end offsets, so no consumer shares the cores while it runs;
 * <li>the same for the relay as it was ({@link InFlightDrain}): five requests in flight
 * and one producer, and one request in flight with one producer, each on a backlog of its
 * own;
 * <li>commit-to-consumer latency p50/p99 at {@code --rate} events/s (1,000), each event
 * committed in its own transaction ({@link LatencyRun});
 * <li>the relay's queries per second against the database while idle;
 * <li>the rate of the relay's claim and mark statements alone on a backlog of the same
 * size, with no Kafka ({@link DatabaseFloor}): the database's ceiling here.
 * </ul>
 */
public final class RelayBench {

	/**
	 * The relay as it was, measured beside it: with five requests in flight and one
	 * producer (before per-key order after a broker restart was fixed), and with one in
	 * flight and still one producer (the fix alone); then the relay as it is once more.
	 */
	private static final List<InFlightDrain> BEFORE = List.of(
			new InFlightDrain("as it was: 5 requests in flight, one producer", "five_outbox", Topics.FIVE_IN_FLIGHT, 5,
					true),
			new InFlightDrain("as it was: 1 request in flight, one producer", "one_producer_outbox",
					Topics.ONE_PRODUCER, 1, true),
			// the first drain's relay once more, last: the machine's drift from the first
			// drain to the others shows as the difference between the two
			new InFlightDrain("as it is, again after those", "again_outbox", Topics.AGAIN, 1, false));

	private RelayBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int backlog = (int) options.number("--backlog", 200_000);
		int rate = (int) options.number("--rate", 1_000);
		int seconds = (int) options.number("--seconds", 20);
		try (BenchStack stack = BenchStack.of("relay", options).mariaDb(OutboxRows.DATABASE).kafka(12).start()) {
			OutboxRows rows = new OutboxRows(stack);
			rows.createTables("match_outbox", "room_outbox", "naive_outbox", "floor_outbox", "five_outbox",
					"one_producer_outbox", "again_outbox");
			String jdbcUrl = stack.jdbcUrl(OutboxRows.DATABASE);
			String bootstrapServers = stack.kafka().bootstrapServers();
			Topics.create(bootstrapServers, stack.kafka().replicationFactor());
			System.out.printf("relay bench: backlog %,d rows, %,d events/s for %d s, Kafka 12 partitions%n", backlog,
					rate, seconds);
			System.out.println("writing the backlogs...");
			rows.insertBacklog("match_outbox", backlog);
			rows.insertBacklog("naive_outbox", backlog);

			System.out.println("starting outbox-relay and draining its backlog...");
			int wakeUpPort = FreePorts.pick();
			List<String> settings = new ArrayList<>(List.of("--kindling.relay.wake-up-port=" + wakeUpPort,
					"--kindling.relay.sources[0].name=matches", "--kindling.relay.sources[0].url=" + jdbcUrl,
					"--kindling.relay.sources[0].table=match_outbox",
					"--kindling.relay.sources[0].topic=" + Topics.RELAY, "--kindling.relay.sources[1].name=rooms",
					"--kindling.relay.sources[1].url=" + jdbcUrl, "--kindling.relay.sources[1].table=room_outbox",
					"--kindling.relay.sources[1].topic=" + Topics.ROOMS,
					// what the relay runs with, as Spring bound it, so the SQL-only drain
					// runs with the same
					"--management.endpoints.web.exposure.include=health,configprops",
					"--management.endpoint.configprops.show-values=always"));
			ServiceJar relay = stack.startService("outbox-relay", "1g", "outbox-relay.log", settings);
			RelaySettings relaySettings = RelaySettings.of(new ServiceClient(relay.port()), stack.metricsToken());
			// CPU each process spent on the drain: the relay, MariaDB, the Kafka broker,
			// this JVM (reading the topic's end offsets)
			CpuTime beforeDrain = stack.cpu();
			Topics.Drain relayDrain = Topics.awaitPublished(bootstrapServers, Topics.RELAY, backlog,
					Duration.ofSeconds(180));
			CpuTime drainCpu = stack.cpu().minus(beforeDrain);
			// the relay as it was, each on a backlog of its own; the relay above rests
			List<InFlightDrain.Result> before = new ArrayList<>();
			for (InFlightDrain drain : BEFORE) {
				before.add(drain.run(stack, rows, backlog));
			}

			// the latency runs' consumers start at the topics' ends: they read only
			// what those runs write
			try (Topics.Arrivals relayTopic = new Topics.Arrivals(bootstrapServers, Topics.RELAY);
					Topics.Arrivals naiveTopic = new Topics.Arrivals(bootstrapServers, Topics.NAIVE)) {
				System.out.printf("naive relay on its backlog for %d s...%n", seconds);
				NaiveRelay naive = new NaiveRelay(jdbcUrl, bootstrapServers);
				naive.start();
				long naiveStart = System.nanoTime();
				long naiveCountBefore = naive.published.get();
				TimeUnit.SECONDS.sleep(seconds);
				double naiveBacklogRate = (naive.published.get() - naiveCountBefore)
						/ ((System.nanoTime() - naiveStart) / 1e9);
				naive.stop();
				rows.deleteUnpublished("naive_outbox");

				System.out.println("idle: counting the relay's queries for 5 s...");
				long statementsBefore = rows.statements();
				TimeUnit.SECONDS.sleep(5);
				// minus the second status query of this measurement
				double idleQueries = (rows.statements() - statementsBefore - 1) / 5.0;

				System.out.printf("outbox-relay at %,d events/s for %d s...%n", rate, seconds);
				Histogram relayLatency = LatencyRun.run(stack, "match_outbox", relayTopic, rate, seconds, 0);
				System.out.printf("outbox-relay at %,d events/s for %d s, writers ringing after commit...%n", rate,
						seconds);
				Histogram rungLatency = LatencyRun.run(stack, "match_outbox", relayTopic, rate, seconds, wakeUpPort);
				System.out.printf("naive relay at %,d events/s for %d s...%n", rate, seconds);
				naive = new NaiveRelay(jdbcUrl, bootstrapServers);
				naive.start();
				Histogram naiveLatency = LatencyRun.run(stack, "naive_outbox", naiveTopic, rate, seconds, 0);
				long naiveLeft = rows.unpublished("naive_outbox");
				naive.stop();

				System.out.printf("the relay's statements alone, no Kafka (%d workers, %,d per batch)...%n",
						relaySettings.workersPerSource(), relaySettings.batchSize());
				relay.stop();
				rows.insertBacklog("floor_outbox", backlog);
				CpuTime beforeFloor = stack.cpu();
				long floorStart = System.nanoTime();
				long floorRows = new DatabaseFloor(jdbcUrl, "floor_outbox", relaySettings.workersPerSource(),
						relaySettings.batchSize())
					.drain();
				double floorRate = floorRows / ((System.nanoTime() - floorStart) / 1e9);
				CpuTime floorCpu = stack.cpu().minus(beforeFloor);

				System.out
					.printf("%nBacklog of %,d rows (10,000 keys, ~300-byte JSON); then %,d events/s, each committed"
							+ " in its own transaction, for %d s; latency = commit returned -> record polled by a consumer.%n%n",
							backlog, rate, seconds);
				Table table = Table.columns("relay", "backlog events/s", "latency p50", "latency p99", "latency max")
					.right(1, 2, 3, 4);
				table.row(
						options.settings().isEmpty()
								? "outbox-relay (%d workers, %d/batch)".formatted(relaySettings.workersPerSource(),
										relaySettings.batchSize())
								: "outbox-relay " + String.join(" ", options.settings()),
						String.format("%,.0f", relayDrain.perSecond()), ms(relayLatency, 50, " ms"),
						ms(relayLatency, 99, " ms"), ms(relayLatency, 100, " ms"));
				for (InFlightDrain.Result drain : before) {
					table.row("outbox-relay " + drain.drain().label(), String.format("%,.0f", drain.rate().perSecond()),
							"", "", "");
				}
				table.row("outbox-relay, writers ring after commit", "", ms(rungLatency, 50, " ms"),
						ms(rungLatency, 99, " ms"), ms(rungLatency, 100, " ms"));
				table.row("naive (1 row, sync send, 1 update per tx)", String.format("%,.0f", naiveBacklogRate),
						ms(naiveLatency, 50, " ms"), ms(naiveLatency, 99, " ms"), ms(naiveLatency, 100, " ms"));
				table.row("the relay's SQL alone: claim + mark, no Kafka", String.format("%,.0f", floorRate), "", "",
						"");
				table.print();
				System.out.printf(
						"drain CPU per event (µs, from /proc): relay %.0f, MariaDB %.0f, Kafka broker %.0f, bench %.0f; total %.0f%n",
						CpuTime.microsPer(drainCpu.services(), backlog), CpuTime.microsPer(drainCpu.mariaDb(), backlog),
						CpuTime.microsPer(drainCpu.kafka(), backlog), CpuTime.microsPer(drainCpu.bench(), backlog),
						CpuTime.microsPer(drainCpu.total(), backlog));
				for (InFlightDrain.Result drain : before) {
					System.out.printf("  %s: relay %.0f, MariaDB %.0f, Kafka broker %.0f; total %.0f%n",
							drain.drain().label(), CpuTime.microsPer(drain.cpu().services(), backlog),
							CpuTime.microsPer(drain.cpu().mariaDb(), backlog),
							CpuTime.microsPer(drain.cpu().kafka(), backlog),
							CpuTime.microsPer(drain.cpu().total(), backlog));
				}
				System.out.printf("relay ÷ its SQL alone: as it is %.2f", relayDrain.perSecond() / floorRate);
				for (InFlightDrain.Result drain : before) {
					System.out.printf("; %s %.2f", drain.drain().label(), drain.rate().perSecond() / floorRate);
				}
				System.out.printf("; as it is ÷ %s: %.2f%n", before.get(0).drain().label(),
						relayDrain.perSecond() / before.get(0).rate().perSecond());
				System.out.printf(
						"the relay's SQL alone, CPU per event (µs): MariaDB %.0f, the bench's JDBC workers %.0f; %,d rows%n",
						CpuTime.microsPer(floorCpu.mariaDb(), floorRows),
						CpuTime.microsPer(floorCpu.bench(), floorRows), floorRows);
				System.out.printf(
						"%noutbox-relay: %,d rows drained in %.1f s; idle: %.1f queries/s against MariaDB"
								+ " (both sources, probe at polling.max-interval %d ms)%n",
						backlog, relayDrain.seconds(), idleQueries, relaySettings.maxInterval().toMillis());
				System.out.printf(
						"naive: %,d of %,d latency-run events delivered in time, %,d still unpublished at the end%n",
						naiveLatency.getTotalCount(), (long) rate * seconds, naiveLeft);
			}
		}
	}

}
