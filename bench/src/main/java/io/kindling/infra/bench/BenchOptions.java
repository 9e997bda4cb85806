package io.kindling.infra.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.kindling.infra.CommandLine;

/**
 * A bench's command line: its own options, the stack's modes ({@code --redis standalone},
 * {@code --kafka single}), and every {@code --name=value}, which is a setting for the
 * services it starts.
 */
public final class BenchOptions extends CommandLine {

	private BenchOptions(String[] args) {
		super(args);
	}

	public static BenchOptions of(String[] args) {
		return new BenchOptions(args);
	}

	/** {@code --redis <mode>}: how the stack runs Redis. */
	public BenchRedis.Mode redis() {
		return mode("--redis", BenchRedis.Mode.class, BenchRedis.Mode.STANDALONE);
	}

	/** {@code --kafka <mode>}: how the stack runs Kafka. */
	public BenchKafka.Mode kafka() {
		return mode("--kafka", BenchKafka.Mode.class, BenchKafka.Mode.SINGLE);
	}

	private <M extends Enum<M>> M mode(String name, Class<M> modes, M defaultMode) {
		String value = text(name, defaultMode.name());
		try {
			return Enum.valueOf(modes, value.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			List<String> known = new ArrayList<>();
			Arrays.stream(modes.getEnumConstants()).forEach((mode) -> known.add(mode.name().toLowerCase(Locale.ROOT)));
			throw new IllegalArgumentException(name + " " + value + ": not one of " + known, ex);
		}
	}

}
