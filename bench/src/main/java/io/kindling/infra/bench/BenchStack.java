package io.kindling.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;

import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import org.jspecify.annotations.Nullable;

/**
 * What a bench runs against, started in a temporary directory and stopped whatever
 * happens: on {@link #close()}, and on Ctrl-C through a shutdown hook. Redis and Kafka
 * run in the modes the command line chose ({@code --redis}, {@code --kafka}); services
 * get only hosts and ports (their own {@code application.yml} builds the rest, as under
 * {@code ./kindling up} and in the tests), the stack's JWT secret, and the settings on
 * the bench's command line.
 *
 * <pre>
 * try (BenchStack stack = BenchStack.of("rooms", options).redis().mariaDb("kindling_matching").start()) {
 *     ServiceJar service = stack.startService("matching-service", "512m", "matching.log", settings);
 *     Phase rooms = stack.measure(() -> Load.closedLoop(32, Duration.ofSeconds(10), operation));
 * }
 * </pre>
 */
public final class BenchStack implements AutoCloseable {

	/**
	 * The setting that turns the web edge's concurrency limit off: a bench's closed loop
	 * of 32 clients is twice its 16, and the limit's instant {@code 503}s are not the
	 * service's work. The overload bench measures the limit.
	 */
	public static final String NO_OVERLOAD_LIMIT = "--kindling.web.overload.limit=0";

	final Path work;

	private final BenchOptions options;

	private final Thread cleanup;

	private final List<ServiceJar> services = new ArrayList<>();

	/**
	 * Every service of the stack accepts tokens signed with it: 384 random bits, made for
	 * this run.
	 */
	private final String secret = Hs256.newSecret();

	private final String metricsToken = Hs256.newSecret();

	private final Map<Long, String> tokens = new ConcurrentHashMap<>();

	private @Nullable Connection monitor;

	@Nullable BenchRedis redis;

	@Nullable MariaDbServer mariaDb;

	@Nullable BenchKafka kafka;

	private boolean closed;

	BenchStack(String bench, BenchOptions options) throws IOException {
		this.work = Files.createTempDirectory("kindling-bench-" + bench + "-");
		this.options = options;
		this.cleanup = new Thread(this::close, bench + "-bench-cleanup");
		// an interrupted bench (Ctrl-C) stops what it started too
		Runtime.getRuntime().addShutdownHook(this.cleanup);
	}

	/** What to start for the bench {@code bench}, in the modes {@code options} chose. */
	public static BenchStackBuilder of(String bench, BenchOptions options) {
		return new BenchStackBuilder(bench, options);
	}

	/**
	 * The checkout the bench runs from: {@code -Dkindling.root}, else the working
	 * directory.
	 */
	public Path root() {
		return BenchHost.root();
	}

	/** The stack's temporary directory, removed on close: a place for logs. */
	public Path work() {
		return this.work;
	}

	public BenchRedis redis() {
		if (this.redis == null) {
			throw new IllegalStateException("this stack runs no Redis");
		}
		return this.redis;
	}

	public MariaDbServer mariaDb() {
		if (this.mariaDb == null) {
			throw new IllegalStateException("this stack runs no MariaDB");
		}
		return this.mariaDb;
	}

	public BenchKafka kafka() {
		if (this.kafka == null) {
			throw new IllegalStateException("this stack runs no Kafka");
		}
		return this.kafka;
	}

	/** A JDBC URL for the bench's own connections to one of the stack's databases. */
	public String jdbcUrl(String database) {
		return mariaDb().jdbcUrl(database);
	}

	/** A connection of the bench's own to one of the stack's databases. */
	public Connection connect(String database) throws SQLException {
		return DriverManager.getConnection(jdbcUrl(database), MariaDbServer.USER, MariaDbServer.PASSWORD);
	}

	/** The JWT secret every service of the stack is started with. */
	public String secret() {
		return this.secret;
	}

	/** The token the stack's services' {@code /actuator/prometheus} takes. */
	public String metricsToken() {
		return this.metricsToken;
	}

	/** A token for {@code userId} that the stack's services accept, signed once. */
	public String token(long userId) {
		return this.tokens.computeIfAbsent(userId, (user) -> Hs256.token(this.secret, user));
	}

	/**
	 * Where a service finds what this stack runs, as {@code --name=value}: hosts and
	 * ports only, as {@code ./kindling up} passes them.
	 */
	public List<String> connectionSettings() {
		List<String> settings = new ArrayList<>();
		if (this.redis != null) {
			settings.addAll(this.redis.serviceSettings());
		}
		if (this.mariaDb != null) {
			settings.add("--kindling.database.host=127.0.0.1");
			settings.add("--kindling.database.port=" + this.mariaDb.port());
		}
		if (this.kafka != null) {
			settings.add("--spring.kafka.bootstrap-servers=" + this.kafka.bootstrapServers());
		}
		return settings;
	}

	/**
	 * Starts {@code <module>/target/<module>.jar} on a free port with the stack's
	 * connection settings, secret and metrics token, quiet logs, {@code settings}, and
	 * then the settings of the bench's command line (a later one replaces an earlier one
	 * of the same name), its output in {@code log} under the work directory; waits until
	 * it is healthy.
	 */
	public ServiceJar startService(String module, String heap, String log, List<String> settings)
			throws IOException, InterruptedException {
		return start(module, null, List.of(), heap, log, settings, List.of());
	}

	/**
	 * As {@link #startService(String, String, String, List)}, with {@code fixed} settings
	 * after the command line's, which they replace: what makes this instance what it is
	 * for the bench (its concurrency limit off, say).
	 */
	public ServiceJar startService(String module, String heap, String log, List<String> settings, List<String> fixed)
			throws IOException, InterruptedException {
		return start(module, null, List.of(), heap, log, settings, fixed);
	}

	/**
	 * As {@link #startService(String, String, String, List)}, with {@code extraClasses}
	 * on the service's class path and {@code jvmOptions} on its command line (see
	 * {@link ServiceJar#start(Path, Path, List, String, int, List, Path)}).
	 */
	public ServiceJar startService(String module, @Nullable Path extraClasses, List<String> jvmOptions, String heap,
			String log, List<String> settings) throws IOException, InterruptedException {
		return start(module, extraClasses, jvmOptions, heap, log, settings, List.of());
	}

	private ServiceJar start(String module, @Nullable Path extraClasses, List<String> jvmOptions, String heap,
			String log, List<String> settings, List<String> fixed) throws IOException, InterruptedException {
		List<String> all = new ArrayList<>(connectionSettings());
		all.add("--kindling.security.jwt-secret=" + this.secret);
		all.add("--kindling.web.metrics-token=" + this.metricsToken);
		all.add("--logging.level.root=WARN");
		all.addAll(settings);
		all.addAll(this.options.settings());
		all.addAll(fixed);
		ServiceJar service = ServiceJar.start(ServiceJar.locate(root(), module), extraClasses, jvmOptions, heap,
				FreePorts.pick(), lastOfEachName(all), this.work.resolve(log));
		synchronized (this) {
			this.services.add(service);
		}
		service.awaitHealthy(Duration.ofSeconds(180));
		return service;
	}

	/**
	 * Spring joins repeated command-line values of one property with commas: keep the
	 * last.
	 */
	static List<String> lastOfEachName(List<String> settings) {
		Map<String, String> byName = new LinkedHashMap<>();
		for (String setting : settings) {
			int equals = setting.indexOf('=');
			String name = (equals > 0) ? setting.substring(0, equals) : setting;
			byName.remove(name);
			byName.put(name, setting);
		}
		return List.copyOf(byName.values());
	}

	/** The CPU every process of the stack has used so far, by role. */
	public CpuTime cpu() {
		List<Long> servicePids;
		synchronized (this) {
			servicePids = this.services.stream().map(ServiceJar::pid).toList();
		}
		return new CpuTime(CpuTime.of(servicePids),
				(this.mariaDb != null) ? CpuTime.of(List.of(this.mariaDb.pid())) : Duration.ZERO,
				(this.redis != null) ? CpuTime.of(this.redis.pids()) : Duration.ZERO,
				(this.kafka != null) ? CpuTime.of(this.kafka.pids()) : Duration.ZERO,
				CpuTime.of(List.of(ProcessHandle.current().pid())));
	}

	/** What the stack's processes have done so far. */
	public Usage usage() {
		try {
			long redisCommands = (this.redis != null) ? this.redis.commandsProcessed() : 0;
			long statements = 0;
			long commits = 0;
			if (this.mariaDb != null) {
				try (Statement status = monitor().createStatement();
						ResultSet rs = status
							.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_commit')")) {
					while (rs.next()) {
						if (rs.getString(1).equalsIgnoreCase("Questions")) {
							statements = rs.getLong(2);
						}
						else {
							commits = rs.getLong(2);
						}
					}
				}
			}
			return new Usage(cpu(), redisCommands, statements, commits);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("MariaDB's status could not be read", ex);
		}
	}

	private synchronized Connection monitor() throws SQLException {
		if (this.monitor == null) {
			this.monitor = DriverManager.getConnection(mariaDb().jdbcUrl(""), MariaDbServer.USER,
					MariaDbServer.PASSWORD);
		}
		return this.monitor;
	}

	/** Runs a phase's load and returns what it did with what it cost the stack. */
	public Phase measure(Callable<Result> load) throws Exception {
		Usage before = usage();
		Result result = load.call();
		return new Phase(result, usage().minus(before));
	}

	/** Stops the services, then the servers, and removes the work directory; once. */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		ServiceJar.stopAll(this.services);
		if (this.monitor != null) {
			try {
				this.monitor.close();
			}
			catch (SQLException ex) {
				// the server stops next
			}
		}
		for (AutoCloseable server : new AutoCloseable[] { this.kafka, this.redis, this.mariaDb }) {
			if (server != null) {
				try {
					server.close();
				}
				catch (Exception ex) {
					// keep stopping the others
				}
			}
		}
		BenchHost.deleteQuietly(this.work);
		if (Thread.currentThread() != this.cleanup) {
			try {
				Runtime.getRuntime().removeShutdownHook(this.cleanup);
			}
			catch (IllegalStateException ex) {
				// the JVM is already shutting down
			}
		}
	}

}
