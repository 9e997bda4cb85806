package io.kindling.infra.consume;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Prints each event of a topic as it arrives: partition, offset, key, headers, value.
 *
 * <pre>
 * ./kindling consume kindling.matches [--bootstrap-servers=127.0.0.1:9092] [--from-beginning]
 * </pre>
 *
 * It joins no consumer group that matters (a fresh random one, no offsets committed), so
 * it never takes records away from a real consumer.
 */
public final class Consume {

	private Consume() {
	}

	public static void main(String[] args) {
		String topic = null;
		String bootstrapServers = "127.0.0.1:9092";
		boolean fromBeginning = false;
		for (String arg : args) {
			if (arg.startsWith("--bootstrap-servers=")) {
				bootstrapServers = arg.substring("--bootstrap-servers=".length());
			}
			else if (arg.equals("--from-beginning")) {
				fromBeginning = true;
			}
			else if (!arg.startsWith("--") && topic == null) {
				topic = arg;
			}
			else {
				usage();
			}
		}
		if (topic == null) {
			usage();
			return;
		}
		Map<String, Object> config = new HashMap<>();
		config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
		config.put(ConsumerConfig.GROUP_ID_CONFIG, "kindling-consume-" + UUID.randomUUID());
		config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, fromBeginning ? "earliest" : "latest");
		config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config);
		Thread main = Thread.currentThread();
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			consumer.wakeup();
			try {
				main.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}));
		System.err.println("consuming " + topic + " from " + bootstrapServers
				+ (fromBeginning ? " from the beginning" : " (new events only)") + "; Ctrl-C to stop");
		try (consumer) {
			consumer.subscribe(List.of(topic));
			while (true) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
					System.out.println(format(record));
				}
				System.out.flush();
			}
		}
		catch (WakeupException ex) {
			// Ctrl-C
		}
	}

	static String format(ConsumerRecord<String, String> record) {
		StringBuilder line = new StringBuilder();
		line.append(Instant.ofEpochMilli(record.timestamp()))
			.append(" partition=")
			.append(record.partition())
			.append(" offset=")
			.append(record.offset())
			.append(" key=")
			.append(record.key());
		for (Header header : record.headers()) {
			line.append(' ')
				.append(header.key())
				.append('=')
				.append(new String(header.value(), StandardCharsets.UTF_8));
		}
		return line.append("\n  ").append(record.value()).toString();
	}

	private static void usage() {
		System.err.println("usage: kindling consume <topic> [--bootstrap-servers=127.0.0.1:9092] [--from-beginning]");
		System.exit(2);
	}

}
