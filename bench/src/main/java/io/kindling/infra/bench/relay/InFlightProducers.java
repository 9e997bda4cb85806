package io.kindling.infra.bench.relay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.jspecify.annotations.Nullable;

/**
 * The relay as it was before it kept one request in flight, for a measurement beside the
 * relay as it is: a bean this bench adds to its relay ({@code --spring.main.sources=}
 * this class, on the relay's class path) that makes the relay's producers with
 * {@code max.in.flight.requests.per.connection} {@code kindling.bench.in-flight}, and,
 * with {@code kindling.bench.one-producer=true}, hands every lane the same producer (one
 * connection, as the relay had before its lanes). The relay's own configuration never
 * declares such a bean (see its {@code KafkaPublisher}); this class exists for
 * {@link RelayBench} only, and loses the per-key order after a broker restart that the
 * one request in flight keeps.
 * <p>
 * The relay loads it, not this bench: it has no lambdas, so it is one class file.
 */
public final class InFlightProducers implements Function<Map<String, Object>, Producer<String, byte[]>> {

	/** What the relay's log says for each producer made here, before its in-flight. */
	static final String MADE = "bench: a producer made with max.in.flight.requests.per.connection=";

	private final int inFlight = Integer.getInteger("kindling.bench.in-flight", 1);

	private final boolean oneProducer = Boolean.getBoolean("kindling.bench.one-producer");

	private @Nullable Producer<String, byte[]> shared;

	@Override
	public synchronized Producer<String, byte[]> apply(Map<String, Object> relayConfig) {
		if (this.oneProducer && this.shared != null) {
			return this.shared;
		}
		Map<String, Object> config = new HashMap<>(relayConfig);
		config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, this.inFlight);
		Producer<String, byte[]> producer = new KafkaProducer<>(config);
		// to the relay's log, where the bench looks for it: the drain was this one's
		System.out.println(MADE + this.inFlight);
		if (this.oneProducer) {
			this.shared = producer;
		}
		return producer;
	}

	/**
	 * A directory holding this class alone, for the relay's class path, under the bench's
	 * work directory.
	 */
	static Path classesIn(Path work) throws IOException {
		String file = InFlightProducers.class.getName().replace('.', '/') + ".class";
		Path classes = work.resolve("relay-classes");
		Path target = classes.resolve(file);
		Files.createDirectories(target.getParent());
		try (InputStream in = Objects.requireNonNull(InFlightProducers.class.getClassLoader().getResourceAsStream(file),
				file)) {
			Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
		}
		return classes;
	}

	/** The relay's JVM options for this class to make producers with these settings. */
	static List<String> jvmOptions(int inFlight, boolean oneProducer) {
		return List.of("-Dkindling.bench.in-flight=" + inFlight, "-Dkindling.bench.one-producer=" + oneProducer);
	}

}
