package io.kindling.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import org.jspecify.annotations.Nullable;

/**
 * What a bench runs against, started in a temporary directory and stopped whatever
 * happens: on {@link #close()}, and on Ctrl-C through a shutdown hook. Redis and Kafka
 * run in the modes the command line chose ({@code --redis}, {@code --kafka}); services
 * get only hosts and ports (their own {@code application.yml} builds the rest, as under
 * {@code ./kindling up} and in the tests).
 *
 * <pre>
 * try (BenchStack stack = BenchStack.of("rooms", options).redis().mariaDb("kindling_matching").start()) {
 *     ServiceJar service = stack.startService("matching-service", "512m", "matching.log", settings);
 * }
 * </pre>
 */
public final class BenchStack implements AutoCloseable {

	private final Path work;

	private final Thread cleanup;

	private final List<ServiceJar> services = new ArrayList<>();

	private @Nullable BenchRedis redis;

	private @Nullable MariaDbServer mariaDb;

	private @Nullable BenchKafka kafka;

	private boolean closed;

	private BenchStack(String bench) throws IOException {
		this.work = Files.createTempDirectory("kindling-bench-" + bench + "-");
		this.cleanup = new Thread(this::close, bench + "-bench-cleanup");
		// an interrupted bench (Ctrl-C) stops what it started too
		Runtime.getRuntime().addShutdownHook(this.cleanup);
	}

	/** What to start for the bench {@code bench}, in the modes {@code options} chose. */
	public static Builder of(String bench, BenchOptions options) {
		return new Builder(bench, options);
	}

	/** The parts of a stack a bench asks for; {@link #start()} starts them. */
	public static final class Builder {

		private final String bench;

		private final BenchOptions options;

		private BenchRedis.@Nullable Mode redis;

		private final List<String> databases = new ArrayList<>();

		private int kafkaPartitions;

		private Builder(String bench, BenchOptions options) {
			this.bench = bench;
			this.options = options;
		}

		/** Redis in the mode the command line chose ({@code --redis}). */
		public Builder redis() {
			return redis(this.options.redis());
		}

		/**
		 * Redis in this mode, whatever the command line chose: for a bench that measures
		 * one mode beside another.
		 */
		public Builder redis(BenchRedis.Mode mode) {
			this.redis = mode;
			return this;
		}

		/** MariaDB with these databases, each granted to the services' user. */
		public Builder mariaDb(String... databases) {
			this.databases.addAll(List.of(databases));
			return this;
		}

		/**
		 * Kafka, whose topics get {@code partitions} partitions unless created otherwise.
		 */
		public Builder kafka(int partitions) {
			this.kafkaPartitions = partitions;
			return this;
		}

		public BenchStack start() throws IOException {
			BenchStack stack = new BenchStack(this.bench);
			try {
				if (this.redis != null) {
					stack.redis = this.redis.start(stack.work.resolve("redis"));
				}
				if (!this.databases.isEmpty()) {
					MariaDbServer mariaDb = new MariaDbServer(stack.work.resolve("mariadb"), FreePorts.pick());
					stack.mariaDb = mariaDb;
					mariaDb.start();
					this.databases.forEach(mariaDb::createDatabase);
				}
				if (this.kafkaPartitions > 0) {
					stack.kafka = this.options.kafka().start(stack.work.resolve("kafka"), this.kafkaPartitions);
				}
				return stack;
			}
			catch (RuntimeException ex) {
				stack.close();
				throw ex;
			}
		}

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
	 * connection settings and then {@code settings} (a later one replaces an earlier one
	 * of the same name), its output in {@code log} under the work directory; waits until
	 * it is healthy.
	 */
	public ServiceJar startService(String module, String heap, String log, List<String> settings)
			throws IOException, InterruptedException {
		List<String> all = new ArrayList<>(connectionSettings());
		all.addAll(settings);
		ServiceJar service = ServiceJar.start(ServiceJar.locate(root(), module), heap, FreePorts.pick(),
				lastOfEachName(all), this.work.resolve(log));
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

	/** Stops the services, then the servers, and removes the work directory; once. */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		ServiceJar.stopAll(this.services);
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
