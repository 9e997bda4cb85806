package io.kindling.infra.bench.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./kindling} run as a user would, on the drill's own ports and state directory,
 * and what it leaves on the machine: its pid files, and the processes that name its state
 * directory.
 */
final class StackScript {

	private final Path root;

	private final Path state;

	private final Ports ports;

	StackScript(Path root, Path state, Ports ports) {
		this.root = root;
		this.state = state;
		this.ports = ports;
	}

	/**
	 * Runs {@code ./kindling <args>}, its output appended to {@code drill-<command>.log}
	 * in the state dir (the last 20 lines shown when it fails); its exit code, or -1 when
	 * it did not end in time.
	 */
	int run(Duration timeout, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(this.root.resolve("kindling").toString()));
		command.addAll(List.of(args));
		Path log = this.state.resolve("drill-" + args[0] + ".log");
		ProcessBuilder builder = new ProcessBuilder(command).directory(this.root.toFile())
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		builder.environment().keySet().removeIf((name) -> name.startsWith("KINDLING_"));
		builder.environment().putAll(this.ports.environment(this.state));
		Process process = builder.start();
		if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			System.out.printf("./kindling %s did not end within %s; see %s%n", String.join(" ", args), timeout, log);
			return -1;
		}
		if (process.exitValue() != 0) {
			List<String> lines = Files.readAllLines(log);
			lines.subList(Math.max(0, lines.size() - 20), lines.size())
				.forEach((line) -> System.out.println("  | " + line));
		}
		return process.exitValue();
	}

	/** Every pid file the script keeps, by name. */
	Map<String, Long> pids() throws IOException {
		Map<String, Long> pids = new TreeMap<>();
		try (Stream<Path> files = Files.list(this.state.resolve("run"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".pid")).toList()) {
				String name = file.getFileName().toString().replaceFirst("\\.pid$", "");
				pids.put(name, Long.parseLong(Files.readString(file).strip()));
			}
		}
		return pids;
	}

	long pidOf(String name) throws IOException {
		return Long.parseLong(Files.readString(this.state.resolve("run/" + name + ".pid")).strip());
	}

	String log(String name) throws IOException {
		return Files.readString(this.state.resolve("logs/" + name + ".log"));
	}

	/** The processes, but this one, whose command line names the state dir. */
	List<String> processesNamingTheState() throws IOException {
		List<String> naming = new ArrayList<>();
		long self = ProcessHandle.current().pid();
		try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
			for (Path dir : processes.filter((path) -> path.getFileName().toString().matches("\\d+")).toList()) {
				String commandLine = commandLine(dir);
				if (commandLine.contains(this.state.toString()) && !dir.getFileName().toString().equals("" + self)) {
					naming.add(dir.getFileName() + " " + commandLine.substring(0, Math.min(120, commandLine.length())));
				}
			}
		}
		return naming;
	}

	private static String commandLine(Path dir) {
		try {
			return new String(Files.readAllBytes(dir.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ');
		}
		catch (IOException ex) {
			return "";
		}
	}

}
