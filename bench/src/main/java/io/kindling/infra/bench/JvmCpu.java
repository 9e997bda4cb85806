package io.kindling.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * The CPU a JVM's threads have used, by kind, from {@code /proc/<pid>/task}.
 *
 * @param jit the JIT compiler threads
 * @param gc the garbage collector's threads
 * @param rest all others: requests, I/O
 */
public record JvmCpu(Duration jit, Duration gc, Duration rest) {

	/** The most rounds {@link #warmUntilJitSettles} adds to a warm-up. */
	static final int MAX_WARMUP_ROUNDS = 24;

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

	/**
	 * Goes on warming a JVM up in rounds until its JIT compiler threads take 5 % or less
	 * of its CPU in two rounds in a row, for at most {@value #MAX_WARMUP_ROUNDS} rounds.
	 * A fixed warm-up left them at 6 to 24 % of a service's CPU in the measured rows of
	 * different runs, and the rows with most compiling measured the slowest service: what
	 * a service that has run for a while never pays. Twelve rounds were not always enough
	 * for the chat bench (15 % still, once), and one quiet round was a lull twice: the
	 * compiler took 20 % of the service's CPU in the measured slices after it.
	 */
	public static void warmUntilJitSettles(long pid, Callable<?> round) throws Exception {
		double share = 1;
		int quiet = 0;
		for (int rounds = 1; rounds <= MAX_WARMUP_ROUNDS; rounds++) {
			JvmCpu before = of(pid);
			round.call();
			share = of(pid).minus(before).jitShare();
			quiet = (share <= 0.05) ? quiet + 1 : 0;
			if (quiet == 2) {
				System.out.printf("JIT settled: %.0f %% of the service's CPU in the last round (%d more rounds)%n",
						100 * share, rounds);
				return;
			}
		}
		System.out.printf("JIT still at %.0f %% of the service's CPU after %d more rounds; measuring anyway%n",
				100 * share, MAX_WARMUP_ROUNDS);
	}

	/** "a % JIT compiler threads, b % GC threads, c % the rest (requests, I/O)". */
	public String shares() {
		double all = Math.max(1, total().toNanos());
		return String.format("%.0f %% JIT compiler threads, %.0f %% GC threads, %.0f %% the rest (requests, I/O)",
				100.0 * this.jit.toNanos() / all, 100.0 * this.gc.toNanos() / all, 100.0 * this.rest.toNanos() / all);
	}

	/** The JIT compiler's share of the total, 0 to 1. */
	public double jitShare() {
		long all = total().toNanos();
		return (all > 0) ? (double) this.jit.toNanos() / all : 0;
	}

}
