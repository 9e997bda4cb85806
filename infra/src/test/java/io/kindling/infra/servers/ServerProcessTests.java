package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A start that fails says why in its message, because the log goes with the test's
 * temporary directory. A shell stands in for the server: no real server is needed to
 * prove what the message carries.
 */
class ServerProcessTests {

	@TempDir
	Path dir;

	@Test
	void aServerThatExitsWhileStartingReportsItsExitCodeAndTheLastLinesItLogged() {
		Shell server = new Shell(this.dir.resolve("shell"), "for i in $(seq 1 50); do echo \"line $i\"; done; exit 3");

		Throwable failure = catchThrowable(server::start);

		assertThat(server.isRunning()).isFalse();
		server.close();
		assertThat(this.dir.resolve("shell")).doesNotExist();
		assertThat(failure).isInstanceOf(IllegalStateException.class)
			.hasMessageStartingWith("shell did not become ready: exited with code 3; the last 40 lines of ")
			.hasMessageEndingWith(lines(11, 50))
			.hasRootCauseMessage("shell ended");
		assertThat(failure.getMessage()).doesNotContain("line 10\n");
	}

	@Test
	void aServerStillRunningWhenItIsGivenUpOnIsSaidToBe() {
		Shell server = new Shell(this.dir.resolve("shell"), "echo 'waiting for a lock'; exec sleep 60") {

			@Override
			protected void awaitReady() {
				FreePorts.await("the first line", Duration.ofSeconds(30), () -> log().contains("waiting for a lock"));
				throw new IllegalStateException("timed out");
			}

		};

		Throwable failure = catchThrowable(server::start);

		assertThat(server.isRunning()).isTrue();
		long pid = server.pid();
		server.close();
		assertThat(failure).hasMessage("shell did not become ready: still running (pid " + pid + "); the last line of "
				+ server.logFile() + ":\nwaiting for a lock");
	}

	@Test
	void aPreparingCommandThatFailsReportsItsExitCodeAndItsOutput() {
		Path log = this.dir.resolve("install.log");

		Throwable failure = catchThrowable(
				() -> ServerProcess.run(List.of("sh", "-c", "echo 'No space left on device'; exit 2"), log));

		assertThat(failure).hasMessage("sh -c echo 'No space left on device'; exit 2 failed: exited with code 2; "
				+ "the last line of " + log + ":\nNo space left on device");
	}

	@Test
	void aServiceJarThatExitsReportsItsExitCodeAndWhatItPrinted() throws Exception {
		ServiceJar service = ServiceJar.start(this.dir.resolve("missing.jar"), "64m", FreePorts.pick(), List.of(),
				this.dir.resolve("service.log"));

		Throwable failure = catchThrowable(() -> service.awaitHealthy(Duration.ofSeconds(60)));

		assertThat(failure).hasMessageStartingWith("missing did not become healthy: exited with code 1; ")
			.hasMessageContaining("Unable to access jarfile " + this.dir.resolve("missing.jar"));
	}

	private static String lines(int from, int to) {
		StringBuilder lines = new StringBuilder();
		for (int i = from; i <= to; i++) {
			lines.append("\nline ").append(i);
		}
		return lines.toString();
	}

	/** {@code sh -c <script>} as a server that is ready once it is, well, never. */
	private static class Shell extends ServerProcess {

		private final String script;

		Shell(Path workDir, String script) {
			super("shell", workDir);
			this.script = script;
		}

		@Override
		protected List<String> command() {
			return List.of("sh", "-c", this.script);
		}

		@Override
		protected void awaitReady() {
			awaitWhileRunning("the shell", Duration.ofSeconds(30), () -> false);
		}

		String log() {
			try {
				return Files.exists(logFile()) ? Files.readString(logFile()) : "";
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

}
