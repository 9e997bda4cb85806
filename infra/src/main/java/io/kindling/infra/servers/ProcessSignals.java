package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/**
 * Freezing and thawing a server's process, as a long GC pause, a stalled VM or a cut
 * network would: {@code SIGSTOP} keeps it from reading or answering anything until
 * {@code SIGCONT}.
 */
public final class ProcessSignals {

	private ProcessSignals() {
	}

	/** Freezes the server ({@code kill -STOP}); its sockets stay open. */
	public static void pause(ServerProcess server) {
		signal("STOP", server.pid());
	}

	/** Thaws a paused server ({@code kill -CONT}). */
	public static void resume(ServerProcess server) {
		signal("CONT", server.pid());
	}

	private static void signal(String signal, long pid) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).redirectErrorStream(true)
				.start();
			if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
				throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
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
