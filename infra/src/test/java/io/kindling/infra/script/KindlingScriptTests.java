package io.kindling.infra.script;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./kindling} itself: it passes shellcheck, and its commands that need no running
 * stack answer as documented, on a state directory of their own.
 */
class KindlingScriptTests {

	private static final Path SCRIPT = Path.of("..", "kindling").toAbsolutePath().normalize();

	private static final List<String> STACK = List.of("redis", "mariadb", "kafka", "matching-service", "swipe-service",
			"outbox-relay", "web-client", "prometheus");

	private static final List<String> CLUSTER_STACK = List.of("redis-1", "redis-2", "redis-3", "redis-4", "redis-5",
			"redis-6", "mariadb-1", "mariadb-2", "mariadb-3", "kafka-1", "kafka-2", "kafka-3", "balancer",
			"matching-service-1", "matching-service-2", "swipe-service-1", "swipe-service-2", "outbox-relay-1",
			"outbox-relay-2", "web-client", "prometheus");

	@TempDir
	Path state;

	record Run(int exitCode, String out, String err) {

	}

	@Test
	void passesShellcheck() throws Exception {
		// ./kindling test installs shellcheck with the other packages
		Run shellcheck = run(List.of("shellcheck", SCRIPT.toString()), Map.of());

		assertThat(shellcheck.exitCode()).as(shellcheck.out()).isZero();
		assertThat(shellcheck.out()).isEmpty();
	}

	@Test
	void helpListsTheCommandsAndEveryPortSetting() throws Exception {
		Run help = kindling(Map.of(), "help");

		assertThat(help.exitCode()).isZero();
		assertThat(help.out()).contains("usage: ./kindling <command>")
			.contains("bench <name>")
			.contains("up --cluster")
			.contains("KINDLING_REDIS_PORT", "KINDLING_DB_PORT", "KINDLING_KAFKA_PORT",
					"KINDLING_KAFKA_CONTROLLER_PORT", "KINDLING_MATCHING_PORT", "KINDLING_SWIPE_PORT",
					"KINDLING_RELAY_PORT", "KINDLING_WEB_PORT", "KINDLING_PROMETHEUS_PORT");
	}

	@Test
	void noCommandOrAnUnknownOneExitsWithTwo() throws Exception {
		Run none = kindling(Map.of());
		Run unknown = kindling(Map.of(), "launch");

		assertThat(none.exitCode()).isEqualTo(2);
		assertThat(none.out()).contains("usage: ./kindling <command>");
		assertThat(unknown.exitCode()).isEqualTo(2);
		assertThat(unknown.err()).contains("unknown command 'launch'");
	}

	@Test
	void tokenPrintsAJwtSignedWithTheSecretForThatUser() throws Exception {
		String secret = "a-test-secret-of-at-least-thirty-two-bytes";
		Run token = kindling(Map.of("KINDLING_JWT_SECRET", secret), "token", "42");

		assertThat(token.exitCode()).as(token.err()).isZero();
		String[] parts = token.out().strip().split("\\.");
		assertThat(parts).hasSize(3);
		Base64.Decoder base64 = Base64.getUrlDecoder();
		JsonMapper json = JsonMapper.builder().build();
		JsonNode header = json.readTree(base64.decode(parts[0]));
		JsonNode claims = json.readTree(base64.decode(parts[1]));
		assertThat(header.get("alg").asString()).isEqualTo("HS256");
		assertThat(claims.get("sub").asString()).isEqualTo("42");
		assertThat(claims.get("exp").asLong()).isGreaterThan(Instant.now().getEpochSecond());
		assertThat(parts[2]).isEqualTo(hs256(secret, parts[0] + "." + parts[1]));
		assertThat(hs256("another-secret-of-at-least-thirty-two-bytes", parts[0] + "." + parts[1]))
			.isNotEqualTo(parts[2]);
	}

	@Test
	void tokenWithoutASecretRefusesRatherThanSignWithOneOfItsOwn() throws Exception {
		Run token = kindling(Map.of(), "token", "42");

		assertThat(token.exitCode()).isEqualTo(1);
		assertThat(token.out()).isEmpty();
		assertThat(token.err()).contains("no JWT secret").contains("KINDLING_JWT_SECRET");
		assertThat(Files.readString(SCRIPT)).doesNotContain("development-secret");
	}

	@Test
	void upMakesItsOwnSecretsOnceReadableByItsOwnerAloneAndSignsTokensWithThem() throws Exception {
		Run first = functions("make_secrets; jwt_secret; echo; metrics_token; echo; "
				+ "stat -c %a \"$KINDLING_STATE_DIR/jwt-secret\" \"$KINDLING_STATE_DIR/metrics-token\"");
		Run again = functions("make_secrets; jwt_secret; echo; metrics_token; echo");
		Run token = kindling(Map.of(), "token", "42");
		Run given = functions("rm \"$KINDLING_STATE_DIR/jwt-secret\"; export KINDLING_JWT_SECRET=given-secret; "
				+ "make_secrets; jwt_secret; echo; ls \"$KINDLING_STATE_DIR\"");

		assertThat(first.exitCode()).as(first.err()).isZero();
		List<String> lines = first.out().lines().toList();
		String secret = lines.get(0);
		assertThat(secret.getBytes(StandardCharsets.UTF_8)).hasSizeGreaterThanOrEqualTo(32);
		assertThat(lines.get(1)).matches("[0-9a-f]{64}");
		assertThat(lines.subList(2, 4)).containsExactly("600", "600");
		assertThat(again.out().lines().toList()).containsExactly(secret, lines.get(1));
		assertThat(given.exitCode()).as(given.err()).isZero();
		assertThat(given.out().lines().toList()).contains("given-secret", "metrics-token").doesNotContain("jwt-secret");
		assertThat(token.exitCode()).as(token.err()).isZero();
		String[] parts = token.out().strip().split("\\.");
		assertThat(parts[2]).isEqualTo(hs256(secret, parts[0] + "." + parts[1]));
	}

	@Test
	void webPrintsTheWebClientsAddressWithTheUsersTokenInTheFragment() throws Exception {
		String secret = "a-test-secret-of-at-least-thirty-two-bytes";
		Run web = kindling(Map.of("KINDLING_JWT_SECRET", secret, "KINDLING_WEB_PORT", "23080"), "web", "7");

		assertThat(web.exitCode()).as(web.err()).isZero();
		String url = web.out().strip();
		assertThat(url).startsWith("http://127.0.0.1:23080/#token=");
		String[] parts = url.substring(url.indexOf("#token=") + 7).split("\\.");
		assertThat(parts).hasSize(3);
		JsonNode claims = JsonMapper.builder().build().readTree(Base64.getUrlDecoder().decode(parts[1]));
		assertThat(claims.get("sub").asString()).isEqualTo("7");
		assertThat(parts[2]).isEqualTo(hs256(secret, parts[0] + "." + parts[1]));
		assertThat(kindling(Map.of(), "web", "ana").exitCode()).isEqualTo(1);
	}

	@Test
	void opsPrintsTheConsolesAddressWithTheOperatorsTokenInTheFragment() throws Exception {
		Run ops = kindling(Map.of("KINDLING_ADMIN_TOKEN", "an-operators-token", "KINDLING_WEB_PORT", "23080"), "ops");

		assertThat(ops.exitCode()).as(ops.err()).isZero();
		assertThat(ops.out().strip()).isEqualTo("http://127.0.0.1:23080/ops#token=an-operators-token");
		Run withoutOne = kindling(Map.of(), "ops");
		assertThat(withoutOne.exitCode()).isEqualTo(1);
		assertThat(withoutOne.err()).contains("./kindling up writes one");
	}

	@Test
	void tokenRefusesWhatIsNotAUserId() throws Exception {
		Run token = kindling(Map.of(), "token", "ana");

		assertThat(token.exitCode()).isEqualTo(1);
		assertThat(token.err()).contains("usage: ./kindling token <userId>");
	}

	@Test
	void statusOnAnEmptyStateDirShowsEverythingStoppedOnItsPorts() throws Exception {
		Run status = kindling(Map.of("KINDLING_SWIPE_PORT", "23082", "KINDLING_DB_PORT", "23306"), "status");

		assertThat(status.exitCode()).as(status.err()).isZero();
		List<String> rows = status.out().strip().lines().takeWhile((row) -> !row.isBlank()).toList();
		assertThat(rows.get(0)).startsWith("NAME");
		assertThat(rows.subList(1, rows.size())).hasSize(STACK.size())
			.allSatisfy((row) -> assertThat(row).contains(" stopped "));
		assertThat(rows.subList(1, rows.size()).stream().map((row) -> row.split("\\s+")[0]))
			.containsExactlyElementsOf(STACK);
		assertThat(status.out()).contains("http://127.0.0.1:23082")
			.contains("jdbc:mysql://127.0.0.1:23306")
			.contains("redis://127.0.0.1:6379")
			.contains("Metrics: /actuator/prometheus", "metrics-token");
	}

	@Test
	void everyServiceListensOnLoopbackAndTheClusterStackBelievesForwardedAddressesFromTheBalancerAlone()
			throws Exception {
		Run single = functions(
				"CHOSEN_STACK=single; load_stack; service_settings matching-service; service_settings web-client");
		Run cluster = functions("CHOSEN_STACK=cluster; load_stack; service_settings swipe-service-2; "
				+ "balancer_config >\"$KINDLING_STATE_DIR/haproxy.cfg\"; cat \"$KINDLING_STATE_DIR/haproxy.cfg\"");

		assertThat(single.exitCode()).as(single.err()).isZero();
		assertThat(single.out().lines().filter("--kindling.bind-address=127.0.0.1"::equals)).hasSize(2);
		assertThat(single.out()).doesNotContain("trusted-proxies");
		assertThat(cluster.exitCode()).as(cluster.err()).isZero();
		assertThat(cluster.out()).contains("--kindling.bind-address=127.0.0.1")
			.contains("--kindling.web.trusted-proxies=127.0.0.2")
			.contains("\tsource 127.0.0.2")
			.contains("http-request del-header X-Forwarded-For")
			.doesNotContain("forward-headers-strategy");
		// the nodes know the services' user and the check's from 127.0.0.1 alone, so the
		// database's section connects from there, not from the one the instances trust
		String database = cluster.out().substring(cluster.out().indexOf("listen mariadb")).split("\n\n")[0];
		assertThat(database).contains("\tsource 127.0.0.1\n").doesNotContain("source 127.0.0.2");
		Path haproxy = Path.of("/usr/sbin/haproxy");
		if (Files.isExecutable(haproxy)) {
			Run check = run(List.of(haproxy.toString(), "-c", "-f", this.state.resolve("haproxy.cfg").toString()),
					Map.of());
			assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
		}
	}

	@Test
	void statusOfTheClusterStackShowsEveryNodeAndInstanceStoppedOnItsPorts() throws Exception {
		Run status = kindling(Map.of("KINDLING_REDIS_PORT", "23379", "KINDLING_KAFKA_PORT", "23092",
				"KINDLING_MATCHING_PORT", "23081", "KINDLING_SWIPE_PORT", "23082", "KINDLING_DB_PORT", "23306"),
				"status", "--cluster");

		assertThat(status.exitCode()).as(status.err()).isZero();
		List<String> rows = status.out().strip().lines().takeWhile((row) -> !row.isBlank()).toList();
		assertThat(rows.subList(1, rows.size()).stream().map((row) -> row.split("\\s+")[0]))
			.containsExactlyElementsOf(CLUSTER_STACK);
		assertThat(rows.subList(1, rows.size())).allSatisfy((row) -> assertThat(row).contains(" stopped "));
		// six Redis nodes on consecutive ports, three Galera nodes and three Kafka
		// brokers, two instances of each service beside the balancer, which alone has
		// the database's and each service's own port
		assertThat(status.out()).contains("redis://127.0.0.1:23379", "redis://127.0.0.1:23384")
			.contains("jdbc:mysql://127.0.0.1:23406", "jdbc:mysql://127.0.0.1:23506", "jdbc:mysql://127.0.0.1:23606")
			.contains("127.0.0.1:23092", "127.0.0.1:23094", "127.0.0.1:23096")
			.contains("jdbc:mysql://127.0.0.1:23306 http://127.0.0.1:23081")
			.contains("http://127.0.0.1:23181", "http://127.0.0.1:23281", "http://127.0.0.1:23182",
					"http://127.0.0.1:23282")
			.contains("balancer", "http://127.0.0.1:23081 http://127.0.0.1:23082");
	}

	@Test
	void upClusterRefusesARedisPortWithNoRoomForItsClusterBusAndStartsNothing() throws Exception {
		Run up = kindling(Map.of("KINDLING_REDIS_PORT", "56000"), "up", "--cluster");

		assertThat(up.exitCode()).isEqualTo(1);
		assertThat(up.err()).contains("no cluster bus port", "KINDLING_REDIS_PORT below 55530");
		assertThat(up.out()).doesNotContain("starting");
		try (var pids = Files.list(this.state.resolve("run"))) {
			assertThat(pids.toList()).isEmpty();
		}
	}

	@Test
	void upRefusesAnUnknownOption() throws Exception {
		Run up = kindling(Map.of(), "up", "--clustr");

		assertThat(up.exitCode()).isEqualTo(1);
		assertThat(up.err()).contains("unknown option '--clustr'");
	}

	@Test
	void downOnAnEmptyStateDirStopsNothingAndSucceeds() throws Exception {
		Run down = kindling(Map.of(), "down");

		assertThat(down.exitCode()).as(down.err()).isZero();
		assertThat(down.out()).contains("stopped").doesNotContain("stopping");
	}

	@Test
	void theBalancersOwnAnswersAreWholeProblemResponsesWithTheirLength() throws Exception {
		try (var files = Files.list(SCRIPT.resolveSibling("config/balancer"))) {
			List<Path> answers = files.filter((file) -> file.toString().endsWith(".http")).sorted().toList();

			assertThat(answers).extracting((file) -> file.getFileName().toString())
				.containsExactly("400.http", "408.http", "500.http", "503.http");
			for (Path answer : answers) {
				String text = Files.readString(answer);
				String head = text.substring(0, text.indexOf("\n\n"));
				byte[] body = text.substring(head.length() + 2).getBytes(StandardCharsets.UTF_8);
				String status = answer.getFileName().toString().replace(".http", "");
				JsonNode problem = JsonMapper.builder().build().readTree(body);
				assertThat(head).startsWith("HTTP/1.1 " + status + " ")
					.contains("Content-Type: application/problem+json", "Content-Length: " + body.length);
				assertThat(problem.get("status").asString()).isEqualTo(status);
				assertThat(problem.get("type").asString()).startsWith("https://kindling.io/problems/");
			}
			assertThat(Files.readString(SCRIPT.resolveSibling("config/balancer/503.http"))).contains("Retry-After: 1");
		}
	}

	@Test
	void logsOfAnUnknownProcessFails() throws Exception {
		Run logs = kindling(Map.of(), "logs", "postgres");

		assertThat(logs.exitCode()).isEqualTo(1);
		assertThat(logs.err()).contains("no such process 'postgres'");
	}

	/**
	 * Runs bash lines with the script's functions loaded, its command left out, and its
	 * checkout (templates in config/) where it lies.
	 */
	private Run functions(String lines) throws Exception {
		String load = "source <(sed '$d' '" + SCRIPT + "'); ROOT='" + SCRIPT.getParent()
				+ "'; CONFIG=\"$ROOT/config\"; ";
		return run(List.of("bash", "-c", load + lines), Map.of("KINDLING_STATE_DIR", this.state.toString()));
	}

	private Run kindling(Map<String, String> environment, String... args) throws Exception {
		List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
		command.addAll(List.of(args));
		Map<String, String> withState = new HashMap<>(environment);
		withState.put("KINDLING_STATE_DIR", this.state.toString());
		return run(command, withState);
	}

	private Run run(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
		ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(this.state.resolve("out.txt").toFile())
			.redirectError(this.state.resolve("err.txt").toFile());
		builder.environment().keySet().removeIf((name) -> name.startsWith("KINDLING_"));
		builder.environment().putAll(environment);
		Process process = builder.start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s ended within 60 s", command).isTrue();
		return new Run(process.exitValue(), Files.readString(this.state.resolve("out.txt")),
				Files.readString(this.state.resolve("err.txt")));
	}

	private static String hs256(String secret, String signed) throws GeneralSecurityException {
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
		return Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
	}

}
