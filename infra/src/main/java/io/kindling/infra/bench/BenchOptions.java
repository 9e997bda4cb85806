package io.kindling.infra.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A bench's command line: {@code --name value} options of its own, the stack's modes
 * ({@code --redis standalone}, {@code --kafka single}), and every {@code --name=value},
 * which is a setting for the services it starts.
 */
public final class BenchOptions {

	private final List<String> args;

	private BenchOptions(List<String> args) {
		this.args = args;
	}

	public static BenchOptions of(String[] args) {
		return new BenchOptions(List.of(args));
	}

	/**
	 * The value after {@code name}, or the default; {@code 200_000} and {@code 200,000}
	 * read as 200000.
	 */
	public long number(String name, long defaultValue) {
		String value = text(name, "");
		return (!value.isEmpty()) ? Long.parseLong(value.replace("_", "").replace(",", "")) : defaultValue;
	}

	/** The value after {@code name} (or in {@code name=value}), or the default. */
	public String text(String name, String defaultValue) {
		for (int i = 0; i < this.args.size(); i++) {
			String arg = this.args.get(i);
			if (arg.equals(name) && i + 1 < this.args.size()) {
				return this.args.get(i + 1);
			}
			if (arg.startsWith(name + "=")) {
				return arg.substring(name.length() + 1);
			}
		}
		return defaultValue;
	}

	/** Every {@code --name=value} argument, in order: settings for the services. */
	public List<String> settings() {
		return this.args.stream().filter((arg) -> arg.startsWith("--") && arg.contains("=")).toList();
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
