package io.kindling.relay;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.JvmOptions;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import io.kindling.infra.test.RealServersExtension;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * swipe-service and matching-service run from their jars, each on a database of its own
 * ({@code <name>_swipe}, {@code <name>_matching}) of one database server, with the relay
 * under test publishing their outbox tables to {@code <name>.matches} and
 * {@code <name>.rooms}: how a test sees events made by the services themselves reach
 * Kafka.
 */
record RelayedServices(ServiceJar swipes, ServiceJar rooms, ServiceClient swipeApi, ServiceClient roomsApi) {

	/** The relay's two sources, on the database server {@code jdbcUrl} names. */
	static void relaySources(DynamicPropertyRegistry registry, String name, Function<String, String> jdbcUrl) {
		registry.add("kindling.relay.sources[0].name", () -> "matches");
		registry.add("kindling.relay.sources[0].url", () -> jdbcUrl.apply(name + "_swipe"));
		registry.add("kindling.relay.sources[0].table", () -> "match_outbox");
		registry.add("kindling.relay.sources[0].topic", () -> name + ".matches");
		registry.add("kindling.relay.sources[1].name", () -> "rooms");
		registry.add("kindling.relay.sources[1].url", () -> jdbcUrl.apply(name + "_matching"));
		registry.add("kindling.relay.sources[1].table", () -> "room_outbox");
		registry.add("kindling.relay.sources[1].topic", () -> name + ".rooms");
		registry.add("kindling.relay.wake-up-port", () -> "0");
	}

	/**
	 * Both services, on the database server listening on {@code databasePort} (their
	 * databases already made), healthy within {@code startUp}; their logs in
	 * {@code target/<name>-<service>.log}.
	 */
	static RelayedServices start(String name, int databasePort, String jwtSecret, Duration startUp,
			String... matchingSettings) throws Exception {
		Path root = Path.of(System.getProperty("kindling.root"));
		Path logs = Path.of("target").toAbsolutePath();
		ServiceJar swipes = ServiceJar.start(ServiceJar.locate(root, "swipe-service"), null, JvmOptions.QUICK_START,
				"384m", FreePorts.pick(),
				settings(databasePort, name + "_swipe", "--kindling.security.jwt-secret=" + jwtSecret),
				logs.resolve(name + "-swipe-service.log"));
		ServiceJar rooms = ServiceJar.start(ServiceJar.locate(root, "matching-service"), null, JvmOptions.QUICK_START,
				"384m", FreePorts.pick(), settings(databasePort, name + "_matching", matchingSettings),
				logs.resolve(name + "-matching-service.log"));
		swipes.awaitHealthy(startUp);
		rooms.awaitHealthy(startUp);
		return new RelayedServices(swipes, rooms, new ServiceClient(swipes.port()), new ServiceClient(rooms.port()));
	}

	private static List<String> settings(int databasePort, String database, String... more) {
		List<String> settings = new ArrayList<>(
				List.of("--kindling.database.host=127.0.0.1", "--kindling.database.port=" + databasePort,
						"--kindling.database.name=" + database, "--spring.datasource.username=" + MariaDbServer.USER,
						"--spring.datasource.password=" + MariaDbServer.PASSWORD, "--spring.data.redis.host=127.0.0.1",
						"--spring.data.redis.port=" + RealServersExtension.redis().port(),
						// no relay listens for the wake-up: the one under test polls
						"--kindling.outbox.wake-up-address="));
		settings.addAll(List.of(more));
		return settings;
	}

	/**
	 * Profiles near each other, each what the others look for (profiles are not under
	 * test), in the swipe database {@code jdbc} reaches.
	 */
	static void insertProfiles(JdbcClient jdbc, long... users) {
		for (long user : users) {
			jdbc.sql("""
					INSERT INTO profiles (user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash,
					    age_min, age_max, max_distance_km, created_at, updated_at, last_active_at)
					VALUES (:user, CONCAT('User ', :user), 'WOMAN', 'WOMAN,MAN', '1995-05-05', 52.52, 13.405,
					    'u33dc0cpp', 18, 99, 50, NOW(6), NOW(6), NOW(6))
					""").param("user", user).update();
		}
	}

	void stop() {
		ServiceJar.stopAll(List.of(this.swipes, this.rooms));
	}

}
