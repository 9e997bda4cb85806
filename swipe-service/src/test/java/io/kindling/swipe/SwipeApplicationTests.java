package io.kindling.swipe;

import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_swipe")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class SwipeApplicationTests {

	@LocalServerPort
	int port;

	@Test
	void bootsAndReportsHealthyOnRealServers() {
		String health = new ServiceClient(this.port).get("/actuator/health", null).body();
		assertThat(health).contains("\"status\":\"UP\"");
	}

}
