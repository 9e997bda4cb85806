package io.kindling.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * The CPU a JVM's threads have used, by kind, from {@code /proc/<pid>/task}.
 *
 * @param jit the JIT compiler threads
 * @param gc the garbage collector's threads
 * @param rest all others: requests, I/O
 */
public record JvmCpu(Duration jit, Duration gc, Duration rest) {

	public static final JvmCpu NONE = new JvmCpu(Duration.ZERO, Duration.ZERO, Duration.ZERO);

	/** What the threads of process {@code pid} have used so far. */
	public static JvmCpu of(long pid) {
		long jit = 0;
		long gc = 0;
		long rest = 0;
		try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
			for (Path task : tasks.toList()) {
				String name;
				try {
					name = Files.readString(task.resolve("comm")).strip();
				}
				catch (IOException ex) {
					// a thread that ended meanwhile
					continue;
				}
				long used = CpuTime.ticks(task.resolve("stat"));
				if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
					jit += used;
				}
				else if (name.startsWith("GC ") || name.startsWith("G1 ")) {
					gc += used;
				}
				else {
					rest += used;
				}
			}
		}
		catch (IOException ex) {
			// the process is gone
		}
		Duration tick = Duration.ofMillis(10);
		return new JvmCpu(tick.multipliedBy(jit), tick.multipliedBy(gc), tick.multipliedBy(rest));
	}

	public JvmCpu minus(JvmCpu earlier) {
		return new JvmCpu(this.jit.minus(earlier.jit), this.gc.minus(earlier.gc), this.rest.minus(earlier.rest));
	}

	public JvmCpu plus(JvmCpu other) {
		return new JvmCpu(this.jit.plus(other.jit), this.gc.plus(other.gc), this.rest.plus(other.rest));
	}

	public Duration total() {
		return this.jit.plus(this.gc).plus(this.rest);
	}

	/** The JIT compiler's share of the total, 0 to 1. */
	public double jitShare() {
		long all = total().toNanos();
		return (all > 0) ? (double) this.jit.toNanos() / all : 0;
	}

}
