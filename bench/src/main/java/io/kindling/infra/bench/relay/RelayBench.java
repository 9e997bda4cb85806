package io.kindling.infra.bench.relay;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Percentiles;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import org.HdrHistogram.Histogram;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;

/**
 * {@code ./kindling bench relay}: starts its own MariaDB, Kafka and an outbox-relay jar
 * on free ports and measures, beside a naive relay in this process (one row, one
 * synchronous send, one update per transaction) on a table of the same shape:
 * <ul>
 * <li>the sustained publish rate through a backlog of {@code --backlog} rows (200,000),
 * read from the topic's end offsets, so no consumer shares the cores while it runs;
 * <li>commit-to-consumer latency p50/p99 at {@code --rate} events/s (1,000), each event
 * committed in its own transaction;
 * <li>the relay's queries per second against the database while idle;
 * <li>the rate of the relay's claim and mark statements alone on a backlog of the same
 * size, with no Kafka ({@link DatabaseFloor}): the database's ceiling here.
 * </ul>
 */
public final class RelayBench {

	private static final String DATABASE = "kindling_swipe";

	private static final String TOPIC = "bench.matches";

	private static final String NAIVE_TOPIC = "bench.naive";

	private RelayBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int backlog = (int) options.number("--backlog", 200_000);
		int rate = (int) options.number("--rate", 1_000);
		int seconds = (int) options.number("--seconds", 20);
		try (BenchStack stack = BenchStack.of("relay", options).mariaDb(DATABASE).kafka(12).start()) {
			List<String> tableShape = outboxMigrations(stack.root());
			String jdbcUrl = stack.jdbcUrl(DATABASE);
			String bootstrapServers = stack.kafka().bootstrapServers();
			try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD)) {
				for (String table : List.of("match_outbox", "room_outbox", "naive_outbox", "floor_outbox")) {
					for (String migration : tableShape) {
						db.createStatement().execute(migration.replace("${outbox_table}", table).replace(";", ""));
					}
				}
			}
			createTopics(bootstrapServers, stack.kafka().replicationFactor());
			System.out.printf("relay bench: backlog %,d rows, %,d events/s for %d s, Kafka 12 partitions%n", backlog,
					rate, seconds);
			System.out.println("writing the backlogs...");
			insertBacklog(jdbcUrl, "match_outbox", backlog);
			insertBacklog(jdbcUrl, "naive_outbox", backlog);

			System.out.println("starting outbox-relay and draining its backlog...");
			int wakeUpPort = FreePorts.pick();
			// --any.relay.setting=value on the bench's command line goes to the relay
			List<String> tuning = options.settings();
			List<String> settings = new ArrayList<>(List.of("--kindling.relay.wake-up-port=" + wakeUpPort,
					"--kindling.relay.sources[0].name=matches", "--kindling.relay.sources[0].url=" + jdbcUrl,
					"--kindling.relay.sources[0].table=match_outbox", "--kindling.relay.sources[0].topic=" + TOPIC,
					"--kindling.relay.sources[1].name=rooms", "--kindling.relay.sources[1].url=" + jdbcUrl,
					"--kindling.relay.sources[1].table=room_outbox", "--kindling.relay.sources[1].topic=bench.rooms",
					"--logging.level.root=WARN",
					// what the relay runs with, as Spring bound it, so the SQL-only drain
					// runs with the same
					"--management.endpoints.web.exposure.include=health,configprops",
					"--management.endpoint.configprops.show-values=always"));
			settings.addAll(tuning);
			ServiceJar relay = stack.startService("outbox-relay", "1g", "outbox-relay.log", settings);
			RelaySettings relaySettings = RelaySettings.of(new ServiceClient(relay.port()));
			int workers = relaySettings.workersPerSource();
			int batchSize = relaySettings.batchSize();
			// CPU each process spent on the drain: the relay, MariaDB, the Kafka broker,
			// this JVM (reading the topic's end offsets)
			CpuTime beforeDrain = stack.cpu();
			Drain relayDrain = awaitPublished(bootstrapServers, TOPIC, backlog, Duration.ofSeconds(180));
			CpuTime drainCpu = stack.cpu().minus(beforeDrain);

			// the latency runs' consumers start at the topics' ends: they read only
			// what those runs write
			try (TopicCounter relayTopic = new TopicCounter(bootstrapServers, TOPIC);
					TopicCounter naiveTopic = new TopicCounter(bootstrapServers, NAIVE_TOPIC)) {

				System.out.printf("naive relay on its backlog for %d s...%n", seconds);
				NaiveRelay naive = new NaiveRelay(jdbcUrl, bootstrapServers);
				naive.start();
				long naiveStart = System.nanoTime();
				long naiveCountBefore = naive.published.get();
				Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
				double naiveBacklogRate = (naive.published.get() - naiveCountBefore)
						/ ((System.nanoTime() - naiveStart) / 1e9);
				naive.stop();
				try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD)) {
					db.createStatement().execute("DELETE FROM naive_outbox WHERE published_at IS NULL");
				}

				System.out.println("idle: counting the relay's queries for 5 s...");
				double idleQueries = idleQueriesPerSecond(jdbcUrl, Duration.ofSeconds(5));

				System.out.printf("outbox-relay at %,d events/s for %d s...%n", rate, seconds);
				Histogram relayLatency = latencyRun(jdbcUrl, "match_outbox", relayTopic, rate, seconds, 0);

				System.out.printf("outbox-relay at %,d events/s for %d s, writers ringing after commit...%n", rate,
						seconds);
				Histogram rungLatency = latencyRun(jdbcUrl, "match_outbox", relayTopic, rate, seconds, wakeUpPort);

				System.out.printf("naive relay at %,d events/s for %d s...%n", rate, seconds);
				naive = new NaiveRelay(jdbcUrl, bootstrapServers);
				naive.start();
				Histogram naiveLatency = latencyRun(jdbcUrl, "naive_outbox", naiveTopic, rate, seconds, 0);
				long naiveLeft = unpublished(jdbcUrl, "naive_outbox");
				naive.stop();

				System.out.printf("the relay's statements alone, no Kafka (%d workers, %,d per batch)...%n", workers,
						batchSize);
				relay.stop();
				insertBacklog(jdbcUrl, "floor_outbox", backlog);
				CpuTime beforeFloor = stack.cpu();
				long floorStart = System.nanoTime();
				long floorRows = new DatabaseFloor(jdbcUrl, "floor_outbox", workers, batchSize).drain();
				double floorRate = floorRows / ((System.nanoTime() - floorStart) / 1e9);
				CpuTime floorCpu = stack.cpu().minus(beforeFloor);

				System.out.println();
				System.out.printf("Backlog of %,d rows (10,000 keys, ~300-byte JSON); then %,d events/s, each committed"
						+ " in its own transaction, for %d s; latency = commit returned -> record polled by a consumer.%n%n",
						backlog, rate, seconds);
				String format = "| %-44s | %16s | %13s | %13s | %13s |%n";
				System.out.printf(format, "relay", "backlog events/s", "latency p50", "latency p99", "latency max");
				System.out.printf(format, "---", "---:", "---:", "---:", "---:");
				System.out.printf(format,
						tuning.isEmpty() ? "outbox-relay (%d workers, %d/batch)".formatted(workers, batchSize)
								: "outbox-relay " + String.join(" ", tuning),
						String.format("%,.0f", relayDrain.perSecond()), ms(relayLatency, 50), ms(relayLatency, 99),
						ms(relayLatency, 100));
				System.out.printf(format, "outbox-relay, writers ring after commit", "", ms(rungLatency, 50),
						ms(rungLatency, 99), ms(rungLatency, 100));
				System.out.printf(format, "naive (1 row, sync send, 1 update per tx)",
						String.format("%,.0f", naiveBacklogRate), ms(naiveLatency, 50), ms(naiveLatency, 99),
						ms(naiveLatency, 100));
				System.out.printf(format, "the relay's SQL alone: claim + mark, no Kafka",
						String.format("%,.0f", floorRate), "", "", "");
				System.out.printf(
						"drain CPU per event (µs, from /proc): relay %.0f, MariaDB %.0f, Kafka broker %.0f, bench %.0f; total %.0f%n",
						CpuTime.microsPer(drainCpu.services(), backlog), CpuTime.microsPer(drainCpu.mariaDb(), backlog),
						CpuTime.microsPer(drainCpu.kafka(), backlog), CpuTime.microsPer(drainCpu.bench(), backlog),
						CpuTime.microsPer(drainCpu.total(), backlog));
				System.out.printf(
						"the relay's SQL alone, CPU per event (µs): MariaDB %.0f, the bench's JDBC workers %.0f;"
								+ " %,d rows%n",
						CpuTime.microsPer(floorCpu.mariaDb(), floorRows),
						CpuTime.microsPer(floorCpu.bench(), floorRows), floorRows);
				System.out.printf(
						"%noutbox-relay: %,d rows drained in %.1f s; idle: %.0f queries/s against MariaDB"
								+ " (both sources, probe at polling.max-interval 50 ms)%n",
						backlog, relayDrain.seconds(), idleQueries);
				System.out.printf(
						"naive: %,d of %,d latency-run events delivered in time, %,d still unpublished at the end%n",
						naiveLatency.getTotalCount(), (long) rate * seconds, naiveLeft);
			}
		}
	}

	private static void createTopics(String bootstrapServers, short replicas) throws Exception {
		try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
			admin.createTopics(List.of(new NewTopic(TOPIC, 12, replicas), new NewTopic(NAIVE_TOPIC, 12, replicas),
					new NewTopic("bench.rooms", 12, replicas)))
				.all()
				.get();
		}
	}

	private static void insertBacklog(String jdbcUrl, String table, int rows) throws SQLException {
		try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD)) {
			db.setAutoCommit(false);
			Timestamp now = Timestamp.from(Instant.now());
			try (PreparedStatement insert = db.prepareStatement("INSERT INTO " + table
					+ " (event_id, event_type, event_key, key_hash, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)")) {
				for (int i = 0; i < rows; i++) {
					Event event = Event.next(i);
					insert.setString(1, event.eventId());
					insert.setString(2, "MATCH_CREATED");
					insert.setString(3, event.key());
					insert.setLong(4, event.keyHash());
					insert.setString(5, event.payload());
					insert.setTimestamp(6, now);
					insert.addBatch();
					if (i % 5_000 == 4_999) {
						insert.executeBatch();
						db.commit();
					}
				}
				insert.executeBatch();
				db.commit();
			}
		}
	}

	/**
	 * Writes {@code rate} events a second, each in its own transaction, on at most 4
	 * connections; the latency of each is from its commit returning to a consumer polling
	 * it. The first second warms the path and is not measured.
	 */
	private static Histogram latencyRun(String jdbcUrl, String table, TopicCounter topic, int rate, int seconds,
			int wakeUpPort) throws Exception {
		Map<String, Long> committedAt = new ConcurrentHashMap<>();
		topic.arrivals.clear();
		BlockingQueue<Connection> connections = new ArrayBlockingQueue<>(4);
		try (DatagramChannel ring = DatagramChannel.open()) {
			for (int i = 0; i < 4; i++) {
				Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
				db.setAutoCommit(false);
				connections.add(db);
			}
			Load.OpenResult written = Load.openLoop(rate, Duration.ofSeconds(1), Duration.ofSeconds(seconds - 1),
					(call) -> {
						Connection db = connections.take();
						try (PreparedStatement insert = db.prepareStatement("INSERT INTO " + table
								+ " (event_id, event_type, event_key, key_hash, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)")) {
							Event event = Event.next(call.index() % 1_000_000);
							insert.setString(1, event.eventId());
							insert.setString(2, "MATCH_CREATED");
							insert.setString(3, event.key());
							insert.setLong(4, event.keyHash());
							insert.setString(5, event.payload());
							insert.setTimestamp(6, Timestamp.from(Instant.now()));
							insert.executeUpdate();
							db.commit();
							if (call.measured()) {
								committedAt.put(event.eventId(), System.nanoTime());
							}
							if (wakeUpPort != 0) {
								// what OutboxWakeUp does after commit
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

	private static double idleQueriesPerSecond(String jdbcUrl, Duration window) throws Exception {
		try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD)) {
			long before = globalQuestions(db);
			Thread.sleep(window.toMillis());
			long after = globalQuestions(db);
			// minus the two status queries of this measurement
			return (after - before - 1) / (double) window.toSeconds();
		}
	}

	private static long globalQuestions(Connection db) throws SQLException {
		try (Statement statement = db.createStatement();
				ResultSet rs = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Questions'")) {
			rs.next();
			return rs.getLong(2);
		}
	}

	private static long unpublished(String jdbcUrl, String table) throws SQLException {
		try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
				ResultSet rs = db.createStatement()
					.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE published_at IS NULL")) {
			rs.next();
			return rs.getLong(1);
		}
	}

	/**
	 * The outbox table's migrations as the services run them, in version order, each one
	 * statement: the table the relay publishes is the services' table.
	 */
	private static List<String> outboxMigrations(Path root) throws IOException {
		try (Stream<Path> files = Files.list(root.resolve("outbox/src/main/resources/db/outbox"))) {
			List<Path> migrations = files.filter((file) -> file.getFileName().toString().matches("V\\d+__.*\\.sql"))
				.sorted(java.util.Comparator.comparingInt((Path file) -> Integer
					.parseInt(file.getFileName().toString().replaceFirst("^V(\\d+)__.*", "$1"))))
				.toList();
			List<String> statements = new ArrayList<>();
			for (Path migration : migrations) {
				statements.add(Files.readString(migration).strip());
			}
			return statements;
		}
	}

	/** One event of the bench: 10,000 keys, a MATCH_CREATED-shaped payload. */
	record Event(String eventId, String key, long keyHash, String payload) {

		static Event next(int i) {
			String eventId = UUID.randomUUID().toString();
			int low = i % 10_000;
			String key = low + ":" + (low + 100_000);
			CRC32 crc = new CRC32();
			crc.update(key.getBytes(StandardCharsets.UTF_8));
			String payload = "{\"event_id\":\"" + eventId + "\",\"event_type\":\"MATCH_CREATED\",\"event_key\":\"" + key
					+ "\",\"match_id\":" + i + ",\"user_ids\":[" + low + "," + (low + 100_000)
					+ "],\"matched_at\":\"2026-12-02T10:00:00Z\",\"occurred_at\":\"2026-12-02T10:00:00.120Z\"}";
			return new Event(eventId, key, crc.getValue(), payload);
		}

	}

	record Drain(long records, double seconds) {

		double perSecond() {
			return this.records / this.seconds;
		}

	}

	/**
	 * Waits until the topic holds {@code records} records, reading only its end offsets:
	 * the publish rate is the relay's and Kafka's, so no consumer competes with them for
	 * the two cores while it is measured. The relay's producer is idempotent, so every
	 * record counted is one row published once.
	 * @return the records and the time from the first record on the topic to the last
	 */
	static Drain awaitPublished(String bootstrapServers, String topic, long records, Duration timeout)
			throws InterruptedException {
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		List<TopicPartition> partitions = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			partitions.add(new TopicPartition(topic, i));
		}
		try (KafkaConsumer<String, String> offsets = new KafkaConsumer<>(config)) {
			long deadline = System.nanoTime() + timeout.toNanos();
			long nextReport = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
			long first = 0;
			long published = 0;
			while (published < records) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("only " + published + " of " + records + " records arrived");
				}
				if (System.nanoTime() > nextReport) {
					System.out.printf("  %,d of %,d%n", published, records);
					nextReport += TimeUnit.SECONDS.toNanos(5);
				}
				// every 50 ms: a finer clock costs the drain CPU on the same two cores,
				// and a drain takes over 10 s
				Thread.sleep(50);
				published = offsets.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
				if (first == 0 && published > 0) {
					first = System.nanoTime();
				}
			}
			return new Drain(records, (System.nanoTime() - first) / 1e9);
		}
	}

	/**
	 * Reads a topic from its end at construction, noting when each event id first
	 * arrives.
	 */
	static final class TopicCounter implements AutoCloseable {

		final Map<String, Long> arrivals = new ConcurrentHashMap<>();

		private volatile boolean running = true;

		private final Thread poller;

		private final CountDownLatch positioned = new CountDownLatch(1);

		TopicCounter(String bootstrapServers, String topic) throws InterruptedException {
			this.poller = Thread.ofPlatform().daemon().start(() -> poll(bootstrapServers, topic));
			if (!this.positioned.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the consumer of " + topic + " found no end offsets in 30 s");
			}
		}

		private void poll(String bootstrapServers, String topic) {
			Map<String, Object> config = new HashMap<>();
			config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
			config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
			config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
			config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
			config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
			try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
				List<TopicPartition> partitions = new ArrayList<>();
				for (int i = 0; i < 12; i++) {
					partitions.add(new TopicPartition(topic, i));
				}
				consumer.assign(partitions);
				consumer.seekToEnd(partitions);
				for (TopicPartition partition : partitions) {
					// seekToEnd is lazy: this fixes the position before any run writes
					consumer.position(partition);
				}
				this.positioned.countDown();
				while (this.running) {
					for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(50))) {
						long now = System.nanoTime();
						Header eventId = record.headers().lastHeader("event_id");
						if (eventId != null) {
							this.arrivals.putIfAbsent(new String(eventId.value(), StandardCharsets.UTF_8), now);
						}
					}
				}
			}
		}

		@Override
		public void close() throws InterruptedException {
			this.running = false;
			this.poller.join(5000);
		}

	}

	/**
	 * The textbook first attempt: claim one row, send it, wait for the ack, mark it,
	 * commit; poll every 50 ms when there is nothing to do.
	 */
	static final class NaiveRelay {

		final AtomicLong published = new AtomicLong();

		private final String jdbcUrl;

		private final KafkaProducer<String, String> producer;

		private volatile boolean running;

		private @Nullable Thread thread;

		NaiveRelay(String jdbcUrl, String bootstrapServers) {
			this.jdbcUrl = jdbcUrl;
			this.producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
					ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
					ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
					ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
		}

		void start() {
			this.running = true;
			this.thread = Thread.ofPlatform().name("naive-relay").start(this::run);
		}

		void stop() throws InterruptedException {
			this.running = false;
			if (this.thread != null) {
				this.thread.join();
			}
			this.producer.close();
		}

		private void run() {
			try (Connection db = DriverManager.getConnection(this.jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
					PreparedStatement claim = db.prepareStatement("""
							SELECT id, event_id, event_type, event_key, payload FROM naive_outbox
							WHERE published_at IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED""");
					PreparedStatement mark = db
						.prepareStatement("UPDATE naive_outbox SET published_at = ? WHERE id = ?")) {
				db.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
				db.setAutoCommit(false);
				while (this.running) {
					boolean found;
					try (ResultSet row = claim.executeQuery()) {
						found = row.next();
						if (found) {
							ProducerRecord<String, String> record = new ProducerRecord<>(NAIVE_TOPIC,
									row.getString("event_key"), row.getString("payload"));
							record.headers()
								.add("event_id", row.getString("event_id").getBytes(StandardCharsets.UTF_8));
							record.headers()
								.add("event_type", row.getString("event_type").getBytes(StandardCharsets.UTF_8));
							this.producer.send(record).get();
							mark.setTimestamp(1, Timestamp.from(Instant.now()));
							mark.setLong(2, row.getLong("id"));
							mark.executeUpdate();
						}
					}
					db.commit();
					if (found) {
						this.published.incrementAndGet();
					}
					else {
						Thread.sleep(50);
					}
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

	private static String ms(Histogram histogram, double percentile) {
		if (histogram.getTotalCount() == 0) {
			return "-";
		}
		return String.format("%.1f ms", Percentiles.ms(histogram, percentile));
	}

}
