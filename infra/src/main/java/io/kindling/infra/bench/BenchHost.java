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

	/**
	 * User + system CPU the processes have used, in clock ticks (1/100 s), from
	 * {@code /proc}: what each side really spent, which other load on the machine does
	 * not distort.
	 */
	public static long cpuTicks(long... pids) {
		long ticks = 0;
		for (long pid : pids) {
			try {
				String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
				String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
				ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
			}
			catch (IOException | RuntimeException ex) {
				// a process that is gone costs nothing more
			}
		}
		return ticks;
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
