package io.kindling.matching;

import io.kindling.infra.test.MutableClock;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The set-up of the tests of rematches, reports, queue stats and the operators' API: one
 * service on real Redis and MariaDB with the settings of {@link RoomFeatures} (so they
 * share one context), stores emptied before each test. The context is closed after each
 * class: left in Spring's cache, its sweeper would go on visiting the one Redis every
 * class of this JVM shares, on a clock a test moved ahead (RematchIT's by half an hour),
 * and time out the entries of whichever class runs next.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { RoomFeatures.ADMIN_SETTING, RoomFeatures.JOINS_SETTING, RoomFeatures.SESSIONS_SETTING,
				RoomFeatures.REPORT_WINDOW_SETTING })
@Import(TestClockConfiguration.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
abstract class RoomFeatureTest {

	@LocalServerPort
	int port;

	@Autowired
	MutableClock clock;

	@Autowired
	StringRedisTemplate redis;

	@Autowired
	JdbcClient jdbc;

	@Autowired
	ApplicationEventPublisher events;

	Api api;

	@BeforeEach
	void fresh() {
		RoomFeatures.freshStores(this.redis, this.jdbc);
		// the bans the last test made are gone from the table: from the cache too
		RoomFeatures.forgetBans(this.events);
		this.api = new Api(this.port);
	}

}
