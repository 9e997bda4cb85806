package io.kindling.infra.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class real servers. Place it before {@code @SpringBootTest} so that the
 * connection settings ({@code spring.data.redis.*}, {@code kindling.database.host},
 * {@code .port} and {@code .name}, from which a service's {@code application.yml} builds
 * its JDBC URL, and {@code spring.kafka.bootstrap-servers}) are system properties before
 * the context starts.
 *
 * <pre>
 * &#64;RealServers(value = {Server.REDIS, Server.MARIADB}, database = "kindling_swipe")
 * &#64;SpringBootTest
 * class SwipeIT { ... }
 * </pre>
 *
 * With {@code redis = RedisMode.CLUSTER} or {@code RedisMode.SENTINEL} the Redis is a
 * real cluster or a primary with a replica and Sentinels, and a Spring test context
 * cached for one mode is never reused by a test class of another.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RealServersExtension.class)
public @interface RealServers {

	Server[] value() default { Server.REDIS, Server.MARIADB, Server.KAFKA };

	/** The database created on MariaDB and put in {@code kindling.database.name}. */
	String database() default "kindling_test";

	/** How Redis runs when {@link Server#REDIS} is asked for. */
	RedisMode redis() default RedisMode.STANDALONE;

	enum Server {

		REDIS, MARIADB, KAFKA,

		/**
		 * Three Kafka nodes with one controller quorum, in place of {@link #KAFKA}:
		 * {@code spring.kafka.bootstrap-servers} lists all three.
		 */
		KAFKA_CLUSTER,

		/**
		 * Three MariaDB nodes in one Galera cluster behind HAProxy, in place of
		 * {@link #MARIADB}: {@code kindling.database.port} is the balancer's, which sends
		 * every connection to one node, the writer, as {@code ./kindling up --cluster}
		 * does.
		 */
		GALERA

	}

}
