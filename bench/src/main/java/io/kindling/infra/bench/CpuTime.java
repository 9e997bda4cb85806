package io.kindling.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;

/**
 * User + system CPU the processes of a bench stack have used, by role, from
 * {@code /proc}: what each side really spent, which other load on the machine does not
 * distort. A role the stack does not run reads zero.
 *
 * @param services the service jars
 * @param mariaDb the database server
 * @param redis every Redis process
 * @param kafka every Kafka broker
 * @param bench this JVM: the load generator, or a bench's own loop
 */
public record CpuTime(Duration services, Duration mariaDb, Duration redis, Duration kafka, Duration bench) {

	public static final CpuTime NONE = new CpuTime(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO,
			Duration.ZERO);

	/** Linux's clock tick (USER_HZ), in which {@code /proc} counts CPU time. */
	private static final Duration TICK = Duration.ofMillis(10);

	public CpuTime minus(CpuTime earlier) {
		return new CpuTime(this.services.minus(earlier.services), this.mariaDb.minus(earlier.mariaDb),
				this.redis.minus(earlier.redis), this.kafka.minus(earlier.kafka), this.bench.minus(earlier.bench));
	}

	public CpuTime plus(CpuTime other) {
		return new CpuTime(this.services.plus(other.services), this.mariaDb.plus(other.mariaDb),
				this.redis.plus(other.redis), this.kafka.plus(other.kafka), this.bench.plus(other.bench));
	}

	public Duration total() {
		return this.services.plus(this.mariaDb).plus(this.redis).plus(this.kafka).plus(this.bench);
	}

	/** Milliseconds of {@code cpu} per operation. */
	public static double msPer(Duration cpu, double operations) {
		return cpu.toNanos() / 1e6 / Math.max(1, operations);
	}

	/** Microseconds of {@code cpu} per operation. */
	public static double microsPer(Duration cpu, double operations) {
		return cpu.toNanos() / 1e3 / Math.max(1, operations);
	}

	/** The CPU the processes have used so far; a process that is gone counts nothing. */
	static Duration of(Collection<Long> pids) {
		long ticks = 0;
		for (long pid : pids) {
			ticks += ticks(Path.of("/proc/" + pid + "/stat"));
		}
		return TICK.multipliedBy(ticks);
	}

	/** utime + stime of a {@code stat} file of {@code /proc}; 0 if it is gone. */
	static long ticks(Path stat) {
		try {
			String line = Files.readString(stat);
			String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
			return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
		}
		catch (IOException | RuntimeException ex) {
			// a process or thread that ended meanwhile costs nothing more
			return 0;
		}
	}

}
