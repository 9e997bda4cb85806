package io.kindling.infra.bench.relay;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.kindling.infra.servers.MariaDbServer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;

/**
 * The textbook first attempt: claim one row, send it, wait for the ack, mark it, commit;
 * poll every 50 ms when there is nothing to do.
 */
final class NaiveRelay {

	final AtomicLong published = new AtomicLong();

	private final String jdbcUrl;

	private final KafkaProducer<String, String> producer;

	private volatile boolean running;

	private @Nullable Thread thread;

	NaiveRelay(String jdbcUrl, String bootstrapServers) {
		this.jdbcUrl = jdbcUrl;
		this.producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers, ProducerConfig.ACKS_CONFIG, "all",
						ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
						StringSerializer.class, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
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
				PreparedStatement mark = db.prepareStatement("UPDATE naive_outbox SET published_at = ? WHERE id = ?")) {
			db.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
			db.setAutoCommit(false);
			while (this.running) {
				boolean found;
				try (ResultSet row = claim.executeQuery()) {
					found = row.next();
					if (found) {
						ProducerRecord<String, String> record = new ProducerRecord<>(Topics.NAIVE,
								row.getString("event_key"), row.getString("payload"));
						record.headers().add("event_id", row.getString("event_id").getBytes(StandardCharsets.UTF_8));
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
