package io.kindling.infra.bench;

import java.time.Duration;
import java.util.function.Function;

/**
 * What a bench stack's processes have done so far, read before and after a phase: the
 * difference is what the phase cost, which other load on the machine does not distort.
 *
 * @param cpu the CPU each role's processes used
 * @param redisCommands commands Redis's primaries ran, those scripts call included
 * @param sqlStatements statements MariaDB ran ({@code Questions})
 * @param sqlCommits explicit commits ({@code Com_commit}; a statement that commits on its
 * own is not counted there)
 */
public record Usage(CpuTime cpu, long redisCommands, long sqlStatements, long sqlCommits) {

	public static final Usage NONE = new Usage(CpuTime.NONE, 0, 0, 0);

	public Usage minus(Usage earlier) {
		return new Usage(this.cpu.minus(earlier.cpu), this.redisCommands - earlier.redisCommands,
				this.sqlStatements - earlier.sqlStatements, this.sqlCommits - earlier.sqlCommits);
	}

	public Usage plus(Usage other) {
		return new Usage(this.cpu.plus(other.cpu), this.redisCommands + other.redisCommands,
				this.sqlStatements + other.sqlStatements, this.sqlCommits + other.sqlCommits);
	}

	/** Milliseconds of one role's CPU ({@code CpuTime::services}) per operation. */
	public double cpuMs(Function<CpuTime, Duration> role, double operations) {
		return CpuTime.msPer(role.apply(this.cpu), operations);
	}

	/** "services, MariaDB, Redis" in ms per operation. */
	public String cpuMsByStore(double operations) {
		return String.format("%.3f, %.3f, %.3f", cpuMs(CpuTime::services, operations),
				cpuMs(CpuTime::mariaDb, operations), cpuMs(CpuTime::redis, operations));
	}

	/** The same three, each as a ratio of {@code base}'s per operation. */
	public String cpuRatioByStore(double operations, Usage base, double baseOperations) {
		return String.format("%.2f, %.2f, %.2f",
				cpuMs(CpuTime::services, operations) / base.cpuMs(CpuTime::services, baseOperations),
				cpuMs(CpuTime::mariaDb, operations) / base.cpuMs(CpuTime::mariaDb, baseOperations),
				cpuMs(CpuTime::redis, operations) / base.cpuMs(CpuTime::redis, baseOperations));
	}

}
