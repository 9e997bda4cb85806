package io.kindling.infra.test;

/**
 * How the tests' Redis runs, each chosen in a service by Spring Boot's own properties
 * alone.
 */
public enum RedisMode {

	/** One server: {@code spring.data.redis.host} and {@code .port}. */
	STANDALONE,

	/**
	 * A primary, its replica and three Sentinels:
	 * {@code spring.data.redis.sentinel.master} and {@code .nodes}.
	 */
	SENTINEL,

	/**
	 * Three primaries and three replicas: {@code spring.data.redis.cluster.nodes}.
	 */
	CLUSTER

}
