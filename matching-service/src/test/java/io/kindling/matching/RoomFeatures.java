package io.kindling.matching;

import java.util.List;

import io.kindling.infra.http.Response;
import io.kindling.matching.ban.BansChanged;

import org.springframework.context.ApplicationEventPublisher;

import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the tests of rematches, reports, queue stats and the operators' API share: the
 * service's settings for them and a few calls.
 */
final class RoomFeatures {

	static final String ADMIN_TOKEN = "test-admin-token-0123456789";

	/** The settings of all those test classes, so they share one context. */
	static final String ADMIN_SETTING = "kindling.matching.admin-token=" + ADMIN_TOKEN;

	static final String JOINS_SETTING = "kindling.matching.rate-limit.joins-per-minute=0";

	static final String SESSIONS_SETTING = "kindling.matching.rate-limit.sessions-per-minute=0";

	/** Shorter than a session lives, so that a report can fall out of it. */
	static final String REPORT_WINDOW_SETTING = "kindling.matching.report-window=1h";

	private RoomFeatures() {
	}

	static void freshStores(StringRedisTemplate redis, JdbcClient jdbc) {
		redis.execute((RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushDb();
			return null;
		});
		jdbc.sql("DELETE FROM seats").update();
		jdbc.sql("DELETE FROM bans").update();
	}

	/** Two sessions put in a room together, then both leave it. */
	static void shareARoom(Api api, String first, String second, long topicId) {
		shareARoom(api, first, api, second, topicId);
	}

	/**
	 * Two sessions put in a room together, each joining through its own client (from its
	 * own address), then both leave it.
	 */
	static void shareARoom(Api firstFrom, String first, Api secondFrom, String second, long topicId) {
		assertThat(firstFrom.join(first, topicId, 2).status()).isEqualTo(202);
		Response matched = secondFrom.join(second, topicId, 2);
		assertThat(matched.status()).as(matched.body()).isEqualTo(200);
		assertThat(firstFrom.leave(first).status()).isEqualTo(204);
		assertThat(secondFrom.leave(second).status()).isEqualTo(204);
	}

	/**
	 * The same service as a client at {@code 127.0.<network>.<host>} sees it: a network
	 * of its own (an IPv4 /24) for each {@code network}. The default client is 127.0.0.1.
	 */
	static Api from(Api api, int network, int host) {
		return new Api(api.http().from("127.0." + network + "." + host));
	}

	/** The ban list of every instance given reads the table again, as after a ban. */
	static void forgetBans(ApplicationEventPublisher... instances) {
		for (ApplicationEventPublisher instance : instances) {
			instance.publishEvent(BansChanged.made(List.of(), false));
		}
	}

	/** A report of the others of the reporter's last room. */
	static Response report(Api api, String reporter, String reason) {
		return api.send("POST", "/api/matching/reports", reporter, "{\"reason\":\"" + reason + "\"}");
	}

	/** How many bans name this session. */
	static long sessionBans(JdbcClient jdbc, String sessionKey) {
		return jdbc.sql("SELECT COUNT(*) FROM bans WHERE ban_type = 'SESSION' AND subject = :key")
			.param("key", sessionKey)
			.query(Long.class)
			.single();
	}

	/** A problem detail of this status and type. */
	static void assertProblem(Response response, int status, String type) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		assertThat(response.field("type")).isEqualTo("https://kindling.io/problems/" + type);
	}

	static Response admin(Api api, String method, String path, String body) {
		return api.send(method, path, null, body, "Authorization", "Bearer " + ADMIN_TOKEN);
	}

	/** The participant keys of every conversation, by conversation id. */
	static List<List<String>> conversations(JdbcClient jdbc, long afterId) {
		return jdbc.sql("""
				SELECT GROUP_CONCAT(participant_key ORDER BY participant_key) FROM conversation_participants
				WHERE conversation_id > :after GROUP BY conversation_id ORDER BY conversation_id
				""")
			.param("after", afterId)
			.query(String.class)
			.list()
			.stream()
			.map((keys) -> List.of(keys.split(",")))
			.toList();
	}

	static long lastConversationId(JdbcClient jdbc) {
		return jdbc.sql("SELECT COALESCE(MAX(id), 0) FROM conversations").query(Long.class).single();
	}

}
