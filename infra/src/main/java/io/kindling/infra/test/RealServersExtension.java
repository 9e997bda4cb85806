package io.kindling.infra.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import io.kindling.infra.kafka.KafkaBroker;
import io.kindling.infra.kafka.KafkaCluster;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.GaleraCluster;
import io.kindling.infra.servers.JvmOptions;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.RedisCluster;
import io.kindling.infra.servers.RedisSentinels;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers.Server;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts each real server at most once per test JVM, on free ports in a temporary
 * directory, and stops and removes them when the JVM's tests are done. Tests reach the
 * servers through {@link #redis()}, {@link #mariaDb()}, {@link #galera()},
 * {@link #kafka()} and {@link #kafkaCluster()}, for example to stop Kafka for a while, to
 * kill Redis, to kill one Kafka node of three or the database's writer.
 */
public final class RealServersExtension implements BeforeAllCallback {

	private static final Object LOCK = new Object();

	private static @Nullable Servers servers;

	@Override
	public void beforeAll(ExtensionContext context) {
		RealServers annotation = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), RealServers.class)
			.orElseThrow(() -> new IllegalStateException("@RealServers is missing on " + context.getDisplayName()));
		Servers started = servers(context);
		Set<Server> wanted = EnumSet.noneOf(Server.class);
		wanted.addAll(List.of(annotation.value()));
		if (wanted.contains(Server.REDIS)) {
			useRedis(started, annotation.redis());
		}
		if (wanted.contains(Server.MARIADB) && wanted.contains(Server.GALERA)) {
			throw new IllegalStateException("@RealServers wants MARIADB or GALERA, not both");
		}
		if (wanted.contains(Server.MARIADB)) {
			started.startMariaDb();
			started.mariaDb().createDatabase(annotation.database());
			useDatabase(started.mariaDb().port(), annotation.database());
		}
		if (wanted.contains(Server.GALERA)) {
			started.startGalera();
			started.galera().createDatabase(annotation.database());
			useDatabase(started.galera().port(), annotation.database());
		}
		if (wanted.contains(Server.KAFKA) && wanted.contains(Server.KAFKA_CLUSTER)) {
			throw new IllegalStateException("@RealServers wants KAFKA or KAFKA_CLUSTER, not both");
		}
		if (wanted.contains(Server.KAFKA)) {
			started.startKafka();
			System.setProperty("spring.kafka.bootstrap-servers", started.kafka().bootstrapServers());
		}
		if (wanted.contains(Server.KAFKA_CLUSTER)) {
			started.startKafkaCluster();
			System.setProperty("spring.kafka.bootstrap-servers", started.kafkaCluster().bootstrapServers());
		}
	}

	/**
	 * As ./kindling up: only where the server is; the service's own application.yml
	 * builds its JDBC URL from these, the driver's settings included.
	 */
	private static void useDatabase(int port, String database) {
		System.setProperty("kindling.database.host", "127.0.0.1");
		System.setProperty("kindling.database.port", String.valueOf(port));
		System.setProperty("kindling.database.name", database);
		System.setProperty("spring.datasource.username", MariaDbServer.USER);
		System.setProperty("spring.datasource.password", MariaDbServer.PASSWORD);
	}

	/**
	 * Spring Boot picks Sentinel over Cluster over one server when several are set, so
	 * the properties of the other modes are cleared.
	 */
	private static void useRedis(Servers started, RedisMode mode) {
		for (String property : REDIS_PROPERTIES) {
			System.clearProperty(property);
		}
		switch (mode) {
			case STANDALONE -> {
				started.startRedis();
				System.setProperty("spring.data.redis.host", "127.0.0.1");
				System.setProperty("spring.data.redis.port", String.valueOf(started.redis().port()));
			}
			case CLUSTER -> {
				started.startRedisCluster();
				System.setProperty("spring.data.redis.cluster.nodes", started.redisCluster().nodes());
			}
			case SENTINEL -> {
				started.startRedisSentinels();
				System.setProperty("spring.data.redis.sentinel.master", started.redisSentinels().masterName());
				System.setProperty("spring.data.redis.sentinel.nodes", started.redisSentinels().sentinelNodes());
			}
		}
	}

	private static final List<String> REDIS_PROPERTIES = List.of("spring.data.redis.host", "spring.data.redis.port",
			"spring.data.redis.cluster.nodes", "spring.data.redis.sentinel.master", "spring.data.redis.sentinel.nodes");

	public static RedisServer redis() {
		return running().redis();
	}

	/** The cluster of a {@code redis = RedisMode.CLUSTER} test class. */
	public static RedisCluster redisCluster() {
		return running().redisCluster();
	}

	/**
	 * The primary, replica and Sentinels of a {@code redis = RedisMode.SENTINEL} test
	 * class.
	 */
	public static RedisSentinels redisSentinels() {
		return running().redisSentinels();
	}

	public static MariaDbServer mariaDb() {
		return running().mariaDb();
	}

	/** The Galera cluster of a {@code Server.GALERA} test class. */
	public static GaleraCluster galera() {
		return running().galera();
	}

	public static KafkaBroker kafka() {
		return running().kafka();
	}

	public static KafkaCluster kafkaCluster() {
		return running().kafkaCluster();
	}

	private static Servers running() {
		Servers current = servers;
		if (current == null) {
			throw new IllegalStateException("no real servers: annotate the test class with @RealServers");
		}
		return current;
	}

	private static Servers servers(ExtensionContext context) {
		synchronized (LOCK) {
			if (servers == null) {
				Servers created = new Servers();
				// The root store closes its values when the whole test run of this JVM
				// ends; with Spring Boot about they stop later, at the JVM's exit.
				context.getRoot()
					.getStore(ExtensionContext.Namespace.create(RealServersExtension.class))
					.put("servers", (AutoCloseable) created::closeUnlessSpringBootIsAbout);
				servers = created;
			}
			return servers;
		}
	}

	/** The servers of one test JVM, under one temporary directory. */
	static final class Servers implements AutoCloseable {

		/** The name Spring Boot gives its shutdown hook's thread. */
		private static final String SPRING_BOOT_SHUTDOWN_HOOK = "SpringApplicationShutdownHook";

		/** Under surefire's 30 s between {@code System.exit} and killing the fork. */
		private static final Duration BOOT_SHUTDOWN_WAIT = Duration.ofSeconds(20);

		private final Path root;

		private @Nullable RedisServer redis;

		private @Nullable RedisCluster redisCluster;

		private @Nullable RedisSentinels redisSentinels;

		private @Nullable MariaDbServer mariaDb;

		private @Nullable GaleraCluster galera;

		private @Nullable KafkaBroker kafka;

		private @Nullable KafkaCluster kafkaCluster;

		Servers() {
			try {
				this.root = Files.createTempDirectory("kindling-test-");
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			// A test JVM that ends abruptly must not leave servers behind. They stop
			// after Spring Boot's own shutdown hook, which closes the test contexts
			// cached until the JVM exits: a context closing while its Redis is gone
			// waited out its listeners' resubscription until surefire killed the fork.
			Runtime.getRuntime().addShutdownHook(new Thread(this::closeAfterSpringBoot, "real-servers-shutdown"));
		}

		/**
		 * At the end of the test run: now, unless Spring Boot may have contexts still
		 * open, which close at the JVM's exit and need the servers until then.
		 */
		void closeUnlessSpringBootIsAbout() {
			if (!springBootOnClassPath()) {
				close();
			}
		}

		/**
		 * The JVM starts every shutdown hook at once; this one lets Spring Boot's finish
		 * closing its contexts first, when there is one.
		 */
		private void closeAfterSpringBoot() {
			try {
				// every hook is started before any is joined: let Boot's be among them
				Thread.sleep(100);
				for (Thread hook : Thread.getAllStackTraces().keySet()) {
					if (hook.getName().equals(SPRING_BOOT_SHUTDOWN_HOOK)) {
						hook.join(BOOT_SHUTDOWN_WAIT.toMillis());
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			close();
		}

		private static boolean springBootOnClassPath() {
			try {
				Class.forName("org.springframework.boot.SpringApplication", false,
						RealServersExtension.class.getClassLoader());
				return true;
			}
			catch (ClassNotFoundException | LinkageError ex) {
				return false;
			}
		}

		synchronized void startRedis() {
			if (this.redis == null) {
				this.redis = new RedisServer(this.root.resolve("redis"), FreePorts.pick());
				this.redis.start();
			}
		}

		synchronized void startRedisCluster() {
			if (this.redisCluster == null) {
				this.redisCluster = new RedisCluster(this.root.resolve("redis-cluster"));
				this.redisCluster.start();
			}
		}

		synchronized void startRedisSentinels() {
			if (this.redisSentinels == null) {
				this.redisSentinels = new RedisSentinels(this.root.resolve("redis-sentinels"));
				this.redisSentinels.start();
			}
		}

		synchronized void startMariaDb() {
			if (this.mariaDb == null) {
				this.mariaDb = new MariaDbServer(this.root.resolve("mariadb"), FreePorts.pick());
				this.mariaDb.start();
			}
		}

		/** Starts the cluster, or any node of it a test left killed. */
		synchronized void startGalera() {
			if (this.galera == null) {
				this.galera = GaleraCluster.onFreePorts(this.root.resolve("galera"));
			}
			this.galera.start();
		}

		synchronized void startKafka() {
			if (this.kafka == null) {
				this.kafka = new KafkaBroker(this.root.resolve("kafka"), FreePorts.pick(), FreePorts.pick(), 6,
						JvmOptions.QUICK_START);
				this.kafka.start();
			}
		}

		/** Starts the cluster, or any node of it a test left stopped or killed. */
		synchronized void startKafkaCluster() {
			if (this.kafkaCluster == null) {
				this.kafkaCluster = KafkaCluster.onFreePorts(this.root.resolve("kafka-cluster"), 3, 6);
			}
			this.kafkaCluster.start();
		}

		RedisServer redis() {
			if (this.redis == null) {
				throw new IllegalStateException("Redis was not asked for in @RealServers");
			}
			return this.redis;
		}

		RedisCluster redisCluster() {
			if (this.redisCluster == null) {
				throw new IllegalStateException("no Redis Cluster: ask for redis = RedisMode.CLUSTER in @RealServers");
			}
			return this.redisCluster;
		}

		RedisSentinels redisSentinels() {
			if (this.redisSentinels == null) {
				throw new IllegalStateException("no Sentinels: ask for redis = RedisMode.SENTINEL in @RealServers");
			}
			return this.redisSentinels;
		}

		MariaDbServer mariaDb() {
			if (this.mariaDb == null) {
				throw new IllegalStateException("MariaDB was not asked for in @RealServers");
			}
			return this.mariaDb;
		}

		GaleraCluster galera() {
			if (this.galera == null) {
				throw new IllegalStateException("GALERA was not asked for in @RealServers");
			}
			return this.galera;
		}

		KafkaBroker kafka() {
			if (this.kafka == null) {
				throw new IllegalStateException("Kafka was not asked for in @RealServers");
			}
			return this.kafka;
		}

		KafkaCluster kafkaCluster() {
			if (this.kafkaCluster == null) {
				throw new IllegalStateException("KAFKA_CLUSTER was not asked for in @RealServers");
			}
			return this.kafkaCluster;
		}

		@Override
		public synchronized void close() {
			for (AutoCloseable server : new AutoCloseable[] { this.kafka, this.kafkaCluster, this.redis,
					this.redisCluster, this.redisSentinels, this.mariaDb, this.galera }) {
				if (server != null) {
					try {
						server.close();
					}
					catch (Exception ex) {
						// keep closing the others
					}
				}
			}
			servers = null;
			try {
				Files.deleteIfExists(this.root);
			}
			catch (IOException ex) {
				// a leftover empty temp dir is harmless
			}
		}

	}

}
