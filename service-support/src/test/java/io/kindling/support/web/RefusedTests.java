package io.kindling.support.web;

import java.util.List;

import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A refusal a service declares is answered by the one handler as its problem detail: its
 * type, status and title, the thrower's words, and the headers its status needs.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class RefusedTests {

	@LocalServerPort
	int port;

	@Autowired
	Refusals refusals;

	@Test
	void aDeclaredRefusalIsAnsweredAsItsProblemDetail() {
		Response response = new ServiceClient(this.port).get("/done", null);

		assertThat(response.status()).isEqualTo(409);
		assertThat(response.header("Content-Type")).hasValue("application/problem+json");
		assertThat(response.json().get("type").asString()).isEqualTo("https://kindling.io/problems/already-done");
		assertThat(response.json().get("title").asString()).isEqualTo("Already done");
		assertThat(response.json().get("status").asInt()).isEqualTo(409);
		assertThat(response.json().get("detail").asString()).isEqualTo("It was done before.");
		assertThat(response.header("Retry-After")).isEmpty();
	}

	@Test
	void retryAfterIsTheWaitInWholeSecondsRoundedUpAndAtLeastOne() {
		ServiceClient http = new ServiceClient(this.port);

		assertThat(http.get("/slow-down?millis=1001", null).header("Retry-After")).hasValue("2");
		assertThat(http.get("/slow-down?millis=3000", null).header("Retry-After")).hasValue("3");
		assertThat(http.get("/slow-down?millis=0", null).header("Retry-After")).hasValue("1");
		assertThat(http.get("/slow-down?millis=1", null).status()).isEqualTo(429);
	}

	@Test
	void anUnauthenticatedRefusalChallengesForABearerToken() {
		Response response = new ServiceClient(this.port).get("/who", null);

		assertThat(response.status()).isEqualTo(401);
		assertThat(response.header("WWW-Authenticate")).hasValue("Bearer");
		assertThat(response.json().get("type").asString()).isEqualTo("https://kindling.io/problems/unauthenticated");
	}

	@Test
	void theCatalogueHoldsTheWebEdgesTypesThenTheServicesOwn() {
		assertThat(this.refusals.all()).startsWith(ProblemType.values())
			.contains(EdgeTestApplication.TestRefusals.ALREADY_DONE, EdgeTestApplication.TestRefusals.SLOW_DOWN);
		assertThat(this.refusals.own()).containsExactly(EdgeTestApplication.TestRefusals.ALREADY_DONE,
				EdgeTestApplication.TestRefusals.SLOW_DOWN);
		assertThat(this.refusals.bySlug("slow-down")).isSameAs(EdgeTestApplication.TestRefusals.SLOW_DOWN);
		assertThat(this.refusals.uris()).contains("https://kindling.io/problems/unavailable",
				"https://kindling.io/problems/already-done");
	}

	@Test
	void aSlugDeclaredTwiceStopsTheStart() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Refusals.declaredIn(List.of("io.kindling.support.refusals.twice")))
			.withMessageContaining("already-done is declared twice");
	}

	@Test
	void aRefusalThatIsNotAnEnumConstantStopsTheStart() {
		assertThatIllegalStateException()
			.isThrownBy(() -> Refusals.declaredIn(List.of("io.kindling.support.refusals.notanenum")))
			.withMessageContaining("is not an enum");
	}

}
