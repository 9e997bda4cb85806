package io.kindling.matching;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.test.ApiContract;
import io.kindling.support.openapi.ApiHandlers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rooms API's OpenAPI description is what the service does: every handler is in it,
 * real answers (successes and refusals, driven through the API as a client would)
 * validate against it, and docs/api/matching-service.json is the same document.
 */
class ApiDescriptionIT extends RoomFeatureTest {

	@Autowired
	@Qualifier("requestMappingHandlerMapping")
	RequestMappingHandlerMapping handlers;

	ApiContract contract;

	/** After the stores are emptied: the same client, every answer checked. */
	@BeforeEach
	void checkEveryAnswer() {
		ServiceClient http = new ServiceClient(this.port);
		this.contract = ApiContract.servedBy(http);
		this.api = new Api(http.observedBy(this.contract::check));
	}

	@Test
	void everyHandlerIsDescribed() {
		this.contract.assertDescribes(ApiHandlers.of(this.handlers));
	}

	@Test
	void theDocsAndSwaggerUiAreOpenToAnyone() {
		ServiceClient http = new ServiceClient(this.port);
		ApiContract.assertSwaggerUiServed(http);
		assertThat(http.get("/v3/api-docs", "not-a-session").status()).isEqualTo(200);
	}

	@Test
	void realAnswersConformToTheDescription() {
		String ana = this.api.session();
		String ben = this.api.session();
		this.api.send("GET", "/api/topics", null, null);
		this.api.status(ana);
		this.api.send("GET", "/api/matching/queues", ana, null);
		this.api.send("POST", "/api/matching/events/tickets", ana, null);
		this.api.send("POST", "/api/matching/reports", ana, "{\"reason\":\"SPAM\"}");
		assertThat(this.api.join(ana, 1, 2).status()).isEqualTo(202);
		this.api.status(ana);
		this.api.join(ana, 1, 2);
		Response formed = this.api.join(ben, 1, 2);
		assertThat(formed.status()).isEqualTo(200);
		this.api.status(ana);
		String room = "/ws/rooms/" + formed.json().get("conversation_id").asLong();
		this.api.http().send(RoomSocket.handshake(room, this.api.session()));
		this.api.http().send(RoomSocket.handshake("/ws/rooms/987654321", ana));
		this.api.http().send(RoomSocket.handshake(room + "?after=yesterday", ana));
		this.api.send("GET", room, ana, null);
		assertThat(this.api.send("POST", "/api/matching/reports", ana, "{\"reason\":\"SPAM\"}").status())
			.isEqualTo(201);
		assertThat(this.api.send("POST", "/api/matching/reports", ana, "{\"reason\":\"SPAM\"}").status())
			.isEqualTo(200);
		this.api.leave(ana);
		this.api.http().send(RoomSocket.handshake(room, ana));
		this.api.leave(ben);
		String cy = this.api.session();
		assertThat(this.api.send("POST", "/api/matching", cy, "{\"topic_ids\": [2, 3], \"size\": 3}").status())
			.isEqualTo(202);
		this.api.status(cy);
		this.api.leave(cy);
		parties();
		refusals(ana);
		operators();
		this.contract.assertAllConformed();
		System.out.println("operations no answer was checked for: " + this.contract.unexercised());
	}

	private void parties() {
		String dee = this.api.session();
		Response party = this.api.send("POST", "/api/parties", dee, null);
		assertThat(party.status()).isEqualTo(201);
		String members = "/api/parties/" + party.field("code") + "/members";
		String eve = this.api.session();
		assertThat(this.api.send("POST", members, eve, null).status()).isEqualTo(200);
		assertThat(this.api.send("POST", members, this.api.session(), null).status()).isEqualTo(409);
		assertThat(this.api.send("POST", "/api/parties/2A2A2A/members", eve, null).status()).isEqualTo(404);
		String forParty = ", \"party_id\": \"" + party.field("party_id") + "\"}";
		assertThat(this.api.send("POST", "/api/matching", dee, "{\"topic_id\": 4, \"size\": 2" + forParty).status())
			.isEqualTo(400);
		assertThat(this.api.send("POST", "/api/matching", eve, "{\"topic_id\": 4, \"size\": 3" + forParty).status())
			.isEqualTo(403);
		assertThat(this.api.send("POST", "/api/matching", dee, "{\"topic_id\": 4, \"size\": 3" + forParty).status())
			.isEqualTo(202);
		this.api.status(eve);
		this.api.leave(eve);
	}

	@Test
	void theCommittedCopyIsWhatTheServiceServes() {
		this.contract.assertCommittedCopy(ApiContract.repositoryRoot().resolve("docs/api/matching-service.json"));
	}

	private void refusals(String session) {
		this.api.join(null, 1, 2);
		this.api.join("no-such-session", 1, 2);
		this.api.send("POST", "/api/matching", session, "{\"topic_id\": 1, \"size\": 4}");
		this.api.send("POST", "/api/matching", session, "{\"topic_id\": ");
		this.api.send("POST", "/api/matching", session, "{\"topic_id\": 999999, \"size\": 2}");
		this.api.send("POST", "/api/matching", session, "{\"topic_ids\": [], \"size\": 2}");
		this.api.send("POST", "/api/matching", session, "{}", "Content-Type", "text/plain");
		this.api.http().send(Request.of("POST", "/api/matching").bearer(session).body(new byte[20 * 1024]));
		this.api.send("GET", "/api/matching", session, null, "Accept", "text/csv");
		this.api.send("GET", "/api/matching/events?ticket=spent", null, null, "Accept", "text/event-stream");
		this.api.send("GET", "/api/matching/queues", null, null);
	}

	private void operators() {
		String topic = "Topic " + System.nanoTime();
		Response added = admin("POST", "/api/admin/topics", "{\"name\":\"" + topic + "\"}");
		assertThat(added.status()).isEqualTo(201);
		long topicId = added.json().get("id").asLong();
		admin("POST", "/api/admin/topics", "{\"name\":\"" + topic + "\"}");
		admin("PATCH", "/api/admin/topics/" + topicId, "{\"active\": false}");
		admin("PATCH", "/api/admin/topics/999999", "{\"active\": true}");
		admin("PATCH", "/api/admin/topics/" + topicId, "{}");
		admin("GET", "/api/admin/topics", null);
		Response ban = admin("POST", "/api/admin/bans",
				"{\"ban_type\":\"IP\",\"value\":\"203.0.113.7\",\"reason\":\"spam\"}");
		assertThat(ban.status()).isEqualTo(201);
		admin("POST", "/api/admin/bans", "{\"ban_type\":\"IP\",\"value\":\"203.0.113.7\"}");
		admin("POST", "/api/admin/bans", "{\"ban_type\":\"IP\",\"value\":\"not-an-address\"}");
		admin("POST", "/api/admin/bans", "{\"ban_type\":\"SESSION\",\"value\":\"" + "ab".repeat(32)
				+ "\",\"expires_at\":\"2999-01-01T00:00:00Z\"}");
		admin("GET", "/api/admin/bans?limit=1", null);
		admin("GET", "/api/admin/bans?cursor=bogus", null);
		admin("DELETE", "/api/admin/bans/" + ban.json().get("id").asLong(), null);
		admin("DELETE", "/api/admin/bans/" + ban.json().get("id").asLong(), null);
		this.api.send("GET", "/api/admin/topics", null, null);
		roomReports();
	}

	/** The room reports made above, listed, dismissed and banned. */
	private void roomReports() {
		Response open = admin("GET", "/api/admin/reports?limit=1", null);
		assertThat(open.status()).isEqualTo(200);
		long reportId = open.json().get("reports").get(0).get("report_id").asLong();
		admin("GET", "/api/admin/reports?cursor=bogus", null);
		String resolution = "/api/admin/reports/" + reportId + "/resolution";
		assertThat(admin("POST", resolution, "{\"action\":\"BAN\",\"note\":\"spam\"}").status()).isEqualTo(200);
		admin("POST", resolution, "{\"action\":\"DISMISS\"}");
		admin("POST", "/api/admin/reports/999999999/resolution", "{\"action\":\"DISMISS\"}");
		admin("POST", resolution, "{}");
		admin("GET", "/api/admin/reports?status=resolved", null);
	}

	private Response admin(String method, String path, String body) {
		return RoomFeatures.admin(this.api, method, path, body);
	}

}
