package io.kindling.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The checkout and machine a bench runs on. */
public final class BenchHost {

	private BenchHost() {
	}

	/** The checkout's root: {@code -Dkindling.root}, else the working directory. */
	public static Path root() {
		return Path.of(System.getProperty("kindling.root", ".")).toAbsolutePath();
	}

	/**
	 * The machine's 1/5/15-minute load joined by {@code separator}: other work on it
	 * shows in every figure.
	 */
	public static String loadAverage(String separator) {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
			return fields[0] + separator + fields[1] + separator + fields[2];
		}
		catch (IOException ex) {
			return "unknown";
		}
	}

	public static void deleteQuietly(Path dir) {
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// a leftover temp dir is harmless
		}
	}

}
