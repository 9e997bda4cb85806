package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * A server started as a child process, with its output in a log file, that can be
 * stopped, killed and restarted.
 */
public abstract class ServerProcess implements AutoCloseable {

	private final String name;

	protected final Path workDir;

	private @Nullable Process process;

	protected ServerProcess(String name, Path workDir) {
		this.name = name;
		this.workDir = workDir;
	}

	/** The command line that runs the server in the foreground. */
	protected abstract List<String> command();

	/** Blocks until the server answers. */
	protected abstract void awaitReady();

	/**
	 * One-time preparation of the work directory (formatting storage, initialising a data
	 * dir).
	 */
	protected void prepare() {
	}

	public final synchronized void start() {
		if (this.process != null && this.process.isAlive()) {
			return;
		}
		Process started;
		try {
			Files.createDirectories(this.workDir);
			prepare();
			started = new ProcessBuilder(command()).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("could not start " + this.name, ex);
		}
		this.process = started;
		try {
			awaitReady();
		}
		catch (RuntimeException ex) {
			// the log goes with the test's temporary directory: the message keeps its end
			throw new IllegalStateException(
					this.name + " did not become ready: " + LogTail.describe(started, logFile()), ex);
		}
	}

	/**
	 * Polls until the server is ready, as {@link FreePorts#await}, but fails at once when
	 * its process has ended (the failure of {@link #start()} then says how, and what it
	 * logged last).
	 */
	protected final void awaitWhileRunning(String what, Duration timeout, BooleanSupplier ready) {
		FreePorts.await(what, timeout, () -> {
			if (!isRunning()) {
				throw new IllegalStateException(this.name + " ended");
			}
			return ready.getAsBoolean();
		});
	}

	/** Stops gracefully (SIGTERM) and waits for the process to end. */
	public final synchronized void stop() {
		end(false);
	}

	/** Ends the process at once (SIGKILL), as a crash would. */
	public final synchronized void kill() {
		end(true);
	}

	/** The running server's process id (for benches that read its CPU time). */
	public synchronized long pid() {
		if (this.process == null || !this.process.isAlive()) {
			throw new IllegalStateException(this.name + " is not running");
		}
		return this.process.pid();
	}

	public synchronized boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	public Path logFile() {
		return this.workDir.resolve(this.name + ".log");
	}

	private void end(boolean forcibly) {
		Process running = this.process;
		if (running == null) {
			return;
		}
		running.descendants().forEach(forcibly ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
		if (forcibly) {
			running.destroyForcibly();
		}
		else {
			running.destroy();
		}
		try {
			if (!running.waitFor(30, TimeUnit.SECONDS)) {
				running.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.process = null;
	}

	@Override
	public void close() {
		stop();
		deleteRecursively(this.workDir);
	}

	static void deleteRecursively(Path dir) {
		if (!Files.exists(dir)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// A leftover temp dir is harmless; the servers are already gone.
		}
	}

	/**
	 * Runs a command and returns what it printed; fails when it fails or has not ended
	 * within the timeout (it is killed then).
	 */
	static String output(List<String> command, Duration timeout) {
		Path printed;
		try {
			printed = Files.createTempFile("kindling-command-", ".out");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(printed.toFile())
				.start();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(String.join(" ", command) + " did not end within " + timeout);
			}
			String text = Files.readString(printed);
			if (process.exitValue() != 0) {
				throw new IllegalStateException(String.join(" ", command) + " failed: " + text.strip());
			}
			return text;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			printed.toFile().delete();
		}
	}

	protected static void run(List<String> command, Path log) {
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
			if (!process.waitFor(120, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(
						String.join(" ", command) + " did not end within 120 s; " + LogTail.lastLines(log));
			}
			if (process.exitValue() != 0) {
				throw new IllegalStateException(
						String.join(" ", command) + " failed: " + LogTail.describe(process, log));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
