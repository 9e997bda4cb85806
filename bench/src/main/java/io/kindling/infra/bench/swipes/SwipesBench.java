package io.kindling.infra.bench.swipes;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchRedis;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.JvmCpu;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.Phase;
import io.kindling.infra.bench.Table;
import io.kindling.infra.bench.Usage;

/**
 * {@code ./kindling bench swipes [--seconds 15] [--warmup 45] [--clients 32] [--users 16384]}:
 * starts its own Redis, MariaDB and a swipe-service jar on free ports and measures
 * {@code POST /api/swipes} ({@link SwipeMix}) at full speed, then at half that rate for
 * latency; beside it, on the same database, a raw-JDBC loop doing the plain
 * two-transaction swipe write with the same mix ({@link JdbcSwipes}, the storage
 * ceiling). Stops everything it started.
 *
 * <p>
 * With {@code --redis cluster} (or {@code sentinel}) it measures that mode beside a
 * single Redis instead, in one run ({@link BesideStandalone}).
 */
public final class SwipesBench {

	/** A service setting that is a driver property: the ceiling gets it too. */
	private static final String DRIVER_PROPERTY = "--spring.datasource.hikari.data-source-properties.";

	/** The JDBC loop's users are offset from the HTTP path's, so they never meet. */
	private static final long JDBC_USERS = 10_000_000L;

	private SwipesBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int seconds = (int) options.number("--seconds", 15);
		int clients = (int) options.number("--clients", 32);
		int warmup = (int) options.number("--warmup", 45);
		int users = Integer.highestOneBit((int) options.number("--users", 16_384));
		if (options.redis() != BenchRedis.Mode.STANDALONE) {
			BesideStandalone.run(options, seconds, clients, warmup, users);
			return;
		}
		try (BenchStack stack = BenchStack.of("swipes", options).redis().mariaDb(HttpSwipes.DATABASE).start()) {
			HttpSwipes http = HttpSwipes.start(stack, users);
			Profiles.seed(stack, JDBC_USERS + 1, users);
			// the ceiling uses the driver settings the service runs with (its
			// application.yml, and any driver property given to this bench for it)
			StringBuilder ceilingUrl = new StringBuilder(stack.jdbcUrl(HttpSwipes.DATABASE)).append(
					"&cachePrepStmts=true&prepStmtCacheSize=250&prepStmtCacheSqlLimit=2048&useLocalSessionState=true&maintainTimeStats=false");
			options.settings()
				.stream()
				.filter((arg) -> arg.startsWith(DRIVER_PROPERTY))
				.forEach((arg) -> ceilingUrl.append('&').append(arg.substring(DRIVER_PROPERTY.length())));
			JdbcSwipes jdbc = new JdbcSwipes(ceilingUrl.toString(), JDBC_USERS, users);
			System.out.printf("swipes bench: %,d users per side, %d clients, %d s per phase%n", users, clients,
					seconds);
			System.out.println("warming up both...");
			http.warmUp(clients, warmup);
			// long enough for this JVM's JIT to have compiled the ceiling's path: the
			// chat bench's raw inserts, warmed for 5 s, ran their first measured slice at
			// three quarters of their later speed
			jdbc.closedLoop(clients, Math.max(20, warmup / 3));
			String loadBefore = BenchHost.loadAverage(" ");
			// the two alternate in slices, so a change in the machine's load hits both
			// alike; what each cost is read around its own slices
			Phase httpMax = Phase.NONE;
			Phase jdbcMax = Phase.NONE;
			JvmCpu serviceThreads = JvmCpu.NONE;
			for (int slice = 0; slice < 3; slice++) {
				System.out.printf("full speed, slice %d of 3: HTTP, then raw JDBC...%n", slice + 1);
				JvmCpu threadsBefore = JvmCpu.of(http.service.pid());
				httpMax = httpMax.plus(stack.measure(() -> http.closedLoop(clients, Math.max(1, seconds / 3))));
				serviceThreads = serviceThreads.plus(JvmCpu.of(http.service.pid()).minus(threadsBefore));
				jdbcMax = jdbcMax.plus(stack.measure(() -> jdbc.closedLoop(clients, Math.max(1, seconds / 3))));
			}
			double halfRate = httpMax.perSecond() / 2;
			System.out.printf("HTTP at half the maximum rate (%.0f/s)...%n", halfRate);
			Result httpHalf = http.openLoop(halfRate, seconds);
			// the storage's own tail at that rate: what no service in front of it can
			// beat
			System.out.printf("raw JDBC at the same rate (%.0f/s)...%n", halfRate);
			Result jdbcHalf = jdbc.openLoop(halfRate, seconds);
			String loadAfter = BenchHost.loadAverage(" ");

			System.out.printf(
					"%nPOST /api/swipes: 70 %% PASS, 28 %% LIKE, 2 %% SUPER_LIKE, 10 %% retries (same key and payload); %d clients; %d s per row (full speed in 3 slices alternating with JDBC).%n",
					clients, seconds);
			System.out.printf(
					"Ceiling: TX 1 (INSERT .. ON DUPLICATE KEY, SELECT .. FOR UPDATE, UPDATE response_status) and, for a mutual like, TX 2 (matches, swipe_history, match_outbox), raw JDBC, same mix, same database.%n%n");
			Table table = Table.columns("path", "swipes/s", "p50 ms", "p99 ms", "matches", "of ceiling")
				.right(1, 2, 3, 4, 5);
			row(table, "raw JDBC, the two transactions", jdbcMax.result(), "100 %");
			row(table, "HTTP POST /api/swipes, full speed", httpMax.result(),
					String.format("%.0f %%", 100 * httpMax.perSecond() / jdbcMax.perSecond()));
			row(table, String.format("HTTP at half the maximum (%.0f/s)", halfRate), httpHalf, "");
			row(table, String.format("raw JDBC at the same rate (%.0f/s)", halfRate), jdbcHalf, "");
			table.print();
			printCosts(httpMax, jdbcMax, serviceThreads);
			System.out.printf(
					"errors: HTTP %d (full) + %d (half), JDBC %d (full) + %d (half); load average before %s, after %s (%d cores)%n",
					httpMax.result().errors(), httpHalf.errors(), jdbcMax.result().errors(), jdbcHalf.errors(),
					loadBefore, loadAfter, Runtime.getRuntime().availableProcessors());
		}
	}

	private static void row(Table table, String path, Result result, String ofCeiling) {
		table.row(path, String.format("%,.0f", result.perSecond()), String.format("%.1f", result.ms(50)),
				String.format("%.1f", result.ms(99)), result.count(SwipeMix.MATCHES), ofCeiling);
	}

	/**
	 * CPU actually spent, which a busy shared machine does not distort: the HTTP path
	 * costs the service, MariaDB and Redis (not the load generator); the JDBC loop costs
	 * this JVM and MariaDB. Then the service's CPU by thread kind, and the statements and
	 * commands per swipe.
	 */
	private static void printCosts(Phase http, Phase jdbc, JvmCpu serviceThreads) {
		CpuTime httpCpu = http.usage().cpu();
		CpuTime jdbcCpu = jdbc.usage().cpu();
		long httpSwipes = http.result().operations();
		long jdbcSwipes = jdbc.result().operations();
		double httpCpuMs = CpuTime.msPer(httpCpu.services().plus(httpCpu.mariaDb()).plus(httpCpu.redis()), httpSwipes);
		double jdbcCpuMs = CpuTime.msPer(jdbcCpu.bench().plus(jdbcCpu.mariaDb()), jdbcSwipes);
		int cores = Runtime.getRuntime().availableProcessors();
		System.out.printf(
				"%nCPU per swipe (not distorted by other load): raw JDBC %.2f ms (this JVM + MariaDB), HTTP %.2f ms (service + MariaDB + Redis),"
						+ " %.0f %% of the ceiling's efficiency; on %d otherwise idle cores at most %,.0f vs %,.0f swipes/s.%n",
				jdbcCpuMs, httpCpuMs, 100 * jdbcCpuMs / httpCpuMs, cores, cores * 1000 / jdbcCpuMs,
				cores * 1000 / httpCpuMs);
		System.out.printf(
				"CPU per swipe by process, HTTP: service %.2f ms, MariaDB %.2f ms, Redis %.2f ms, load generator %.2f ms; raw JDBC: loop %.2f ms, MariaDB %.2f ms.%n",
				CpuTime.msPer(httpCpu.services(), httpSwipes), CpuTime.msPer(httpCpu.mariaDb(), httpSwipes),
				CpuTime.msPer(httpCpu.redis(), httpSwipes), CpuTime.msPer(httpCpu.bench(), httpSwipes),
				CpuTime.msPer(jdbcCpu.bench(), jdbcSwipes), CpuTime.msPer(jdbcCpu.mariaDb(), jdbcSwipes));
		System.out.printf("The service's CPU while measured: %s.%n", serviceThreads.shares());
		System.out.printf(
				"Work per swipe: HTTP %.2f SQL statements (%.2f explicit commits), %.2f Redis commands; raw JDBC %.2f SQL statements (%.2f explicit commits).%n",
				http.per(Usage::sqlStatements), http.per(Usage::sqlCommits), http.per(Usage::redisCommands),
				jdbc.per(Usage::sqlStatements), jdbc.per(Usage::sqlCommits));
	}

}
