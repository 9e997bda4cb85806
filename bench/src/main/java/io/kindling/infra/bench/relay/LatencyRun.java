package io.kindling.infra.bench.relay;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.relay.OutboxRows.Event;
import org.HdrHistogram.Histogram;

/**
 * Commit-to-consumer latency at a steady rate: events written one per transaction, on at
 * most 4 connections, each timed from its commit returning to a consumer polling it. The
 * first second warms the path and is not measured. With a wake-up port, each writer rings
 * it after commit, as {@code OutboxWakeUp} does.
 */
final class LatencyRun {

	private LatencyRun() {
	}

	static Histogram run(BenchStack stack, String table, Topics.Arrivals topic, int rate, int seconds, int wakeUpPort)
			throws Exception {
		Map<String, Long> committedAt = new ConcurrentHashMap<>();
		topic.arrivals.clear();
		BlockingQueue<Connection> connections = new ArrayBlockingQueue<>(4);
		try (DatagramChannel ring = DatagramChannel.open()) {
			for (int i = 0; i < 4; i++) {
				Connection db = stack.connect(OutboxRows.DATABASE);
				db.setAutoCommit(false);
				connections.add(db);
			}
			Load.OpenResult written = Load.openLoop(rate, Duration.ofSeconds(1), Duration.ofSeconds(seconds - 1),
					(call) -> {
						Connection db = connections.take();
						try (PreparedStatement insert = db
							.prepareStatement("INSERT INTO " + table + OutboxRows.INSERT)) {
							Event event = Event.next(call.index() % 1_000_000);
							event.bind(insert, Timestamp.from(Instant.now()));
							insert.executeUpdate();
							db.commit();
							if (call.measured()) {
								committedAt.put(event.eventId(), System.nanoTime());
							}
							if (wakeUpPort != 0) {
								ring.send(ByteBuffer.wrap(table.getBytes(StandardCharsets.UTF_8)),
										new InetSocketAddress("127.0.0.1", wakeUpPort));
							}
						}
						finally {
							connections.add(db);
						}
					});
			long errors = written.leadIn().errors() + written.measured().errors();
			if (errors > 0) {
				System.out.printf("  %,d events could not be written: %s%n", errors, written.measured().errorKinds());
			}
		}
		finally {
			for (Connection db : connections) {
				db.close();
			}
		}
		// Let the tail arrive (a naive relay that falls behind does not get forever).
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline && !topic.arrivals.keySet().containsAll(committedAt.keySet())) {
			Thread.sleep(100);
		}
		Histogram latency = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
		committedAt.forEach((eventId, committed) -> {
			Long arrived = topic.arrivals.get(eventId);
			if (arrived != null) {
				latency.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(arrived - committed)));
			}
		});
		return latency;
	}

}
