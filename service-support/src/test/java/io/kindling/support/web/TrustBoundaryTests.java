package io.kindling.support.web;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.kindling.infra.test.fuzz.RawHttp;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Trust comes from configuration, never from a header: the server listens on
 * {@code kindling.bind-address} only, and {@code X-Forwarded-For} names the client only
 * when the peer is one of {@code kindling.web.trusted-proxies}. The balancer's own
 * address here is 127.0.0.2, as in {@code ./kindling up --cluster}.
 */
class TrustBoundaryTests {

	static final String PROXY = "127.0.0.2";

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "kindling.web.trusted-proxies=" + PROXY, "kindling.bind-address=127.0.0.1" })
	class BehindATrustedProxy {

		@LocalServerPort
		int port;

		@Test
		void aClientThatReachesTheInstanceDirectlyCannotChooseItsAddressWithTheHeader() throws IOException {
			assertThat(whoami(null, "203.0.113.9")).isEqualTo("127.0.0.1");
			assertThat(whoami(null, "203.0.113.9, " + PROXY)).isEqualTo("127.0.0.1");
			assertThat(whoami(null, null)).isEqualTo("127.0.0.1");
		}

		@Test
		void behindTheTrustedProxyTheClientIsTheAddressItForwards() throws IOException {
			assertThat(whoami(PROXY, "203.0.113.9")).isEqualTo("203.0.113.9");
			assertThat(whoami(PROXY, "2001:db8::7")).isEqualTo("2001:db8:0:0:0:0:0:7");
		}

		@Test
		void addressesAClientWroteItselfBeforeTheProxysAreIgnored() throws IOException {
			// HAProxy appends the peer it saw to whatever the client sent
			assertThat(whoami(PROXY, "198.51.100.1, 203.0.113.9")).isEqualTo("203.0.113.9");
			assertThat(whoami(PROXY, "203.0.113.9, " + PROXY)).isEqualTo("203.0.113.9");
		}

		@Test
		void aForwardedValueThatIsNotAnAddressLeavesThePeer() throws IOException {
			assertThat(whoami(PROXY, "evil.example.com")).isEqualTo(PROXY);
			assertThat(whoami(PROXY, null)).isEqualTo(PROXY);
			assertThat(whoami(PROXY, "unknown, ")).isEqualTo(PROXY);
		}

		@Test
		void theServerListensOnTheBindAddressOnly() throws IOException {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", this.port), 2000);
			}
			assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> {
				try (Socket socket = new Socket()) {
					socket.connect(new InetSocketAddress(PROXY, this.port), 2000);
				}
			});
		}

		private String whoami(String from, String forwardedFor) throws IOException {
			String request = "GET /whoami HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
					+ ((forwardedFor != null) ? "X-Forwarded-For: " + forwardedFor + "\r\n" : "") + "\r\n";
			RawHttp.Response response = RawHttp.exchange(from, "127.0.0.1", this.port,
					request.getBytes(StandardCharsets.US_ASCII), 10_000);
			assertThat(response.status()).as(response.body()).isEqualTo(200);
			return response.body().replaceAll(".*\"address\":\"([^\"]*)\".*", "$1");
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
	class WithNoTrustedProxy {

		@LocalServerPort
		int port;

		@Test
		void theHeaderIsNeverBelieved() throws IOException {
			String request = "GET /whoami HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Forwarded-For: 203.0.113.9\r\n"
					+ "Forwarded: for=203.0.113.9\r\nX-Real-IP: 203.0.113.9\r\n\r\n";
			for (String from : List.of("127.0.0.1", PROXY)) {
				RawHttp.Response response = RawHttp.exchange(from, "127.0.0.1", this.port,
						request.getBytes(StandardCharsets.US_ASCII), 10_000);
				assertThat(response.body()).contains("\"address\":\"" + from + "\"");
			}
		}

	}

	@Test
	void aTrustedProxyThatIsNotAnAddressStopsTheStart() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WebEdgeProperties(org.springframework.util.unit.DataSize.ofKilobytes(16), List.of(),
					List.of("10.0.0.0/33"), ""))
			.withMessageContaining("kindling.web.trusted-proxies");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new WebEdgeProperties(org.springframework.util.unit.DataSize.ofKilobytes(16), List.of(),
					List.of("balancer.internal"), ""))
			.withMessageContaining("balancer.internal");
	}

}
