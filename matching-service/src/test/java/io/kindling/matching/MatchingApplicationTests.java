package io.kindling.matching;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class MatchingApplicationTests {

	@LocalServerPort
	int port;

	@Test
	void bootsAndReportsHealthyOnRealServers() {
		String health = RestClient.create("http://127.0.0.1:" + this.port)
			.get()
			.uri("/actuator/health")
			.retrieve()
			.body(String.class);
		assertThat(health).contains("\"status\":\"UP\"");
	}

}
