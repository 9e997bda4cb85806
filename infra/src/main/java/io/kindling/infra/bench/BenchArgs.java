package io.kindling.infra.bench;

/** Command-line options of the bench mains: {@code --name value}. */
public final class BenchArgs {

	private BenchArgs() {
	}

	/**
	 * The value after {@code name}, or the default; {@code 200_000} and {@code 200,000}
	 * read as 200000.
	 */
	public static long longArg(String[] args, String name, long defaultValue) {
		for (int i = 0; i < args.length - 1; i++) {
			if (args[i].equals(name)) {
				return Long.parseLong(args[i + 1].replace("_", "").replace(",", ""));
			}
		}
		return defaultValue;
	}

}
