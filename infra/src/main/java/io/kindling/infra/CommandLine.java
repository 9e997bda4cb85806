package io.kindling.infra;

import java.util.List;

/**
 * A tool's command line: {@code --name value} (or {@code --name=value}) options, and
 * every {@code --name=value}, which a tool that starts services passes on to them as a
 * setting.
 */
public class CommandLine {

	private final List<String> args;

	protected CommandLine(String[] args) {
		this.args = List.of(args);
	}

	public static CommandLine of(String[] args) {
		return new CommandLine(args);
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

}
