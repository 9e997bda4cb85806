package io.kindling.webclient;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kindling.infra.demo.DemoTown;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.http.Response;
import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.JvmOptions;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.PrometheusServer;
import io.kindling.infra.servers.ServiceJar;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web client in a real headless Chromium, two browsers side by side, against both
 * services run from their jars on the real Redis and MariaDB, each allowing this server's
 * origin. Two people join one topic, both see their room by push and talk in it until one
 * leaves; two demo users like each other, both see the match by push and message each
 * other; the operators' console draws its charts from a real Prometheus scraping both
 * services and dismisses a report; no browser logs an error. Screenshots of each page
 * land in {@code target/screenshots} (and in the directory {@code -Dkindling.screenshots}
 * names: {@code ./kindling screenshots} gives {@code docs/images}).
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "webclient_it")
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class WebClientIT {

	static final String JWT_SECRET = Hs256.newSecret();

	static final int WEB_PORT = FreePorts.pick();

	static final int PROMETHEUS_PORT = FreePorts.pick();

	static final String ADMIN_TOKEN = "web-client-it-operators-token";

	/** What the services' /actuator/prometheus takes, and the test's Prometheus sends. */
	static final String METRICS_TOKEN = "web-client-it-metrics-token";

	static final String SCREENSHOTS = System.getProperty("kindling.screenshots", "");

	static ServiceJar swipes;

	static ServiceJar rooms;

	static ServiceClient swipeApi;

	static Browser first;

	static Browser second;

	static PrometheusServer prometheus;

	@DynamicPropertySource
	static void web(DynamicPropertyRegistry registry) {
		registry.add("server.port", () -> WEB_PORT);
		registry.add("kindling.web-client.matching-url", () -> "http://127.0.0.1:" + rooms.port());
		registry.add("kindling.web-client.swipe-url", () -> "http://127.0.0.1:" + swipes.port());
		registry.add("kindling.web-client.prometheus-url", () -> "http://127.0.0.1:" + PROMETHEUS_PORT);
		registry.add("kindling.web-client.admin-token", () -> ADMIN_TOKEN);
	}

	@BeforeAll
	static void start() throws Exception {
		for (String database : List.of("webclient_swipe", "webclient_matching")) {
			RealServersExtension.mariaDb().sql("DROP DATABASE IF EXISTS `" + database + "`");
			RealServersExtension.mariaDb().createDatabase(database);
		}
		Path root = Path.of(System.getProperty("kindling.root"));
		Path logs = Path.of("target").toAbsolutePath();
		swipes = ServiceJar.start(ServiceJar.locate(root, "swipe-service"), null, JvmOptions.QUICK_START, "384m",
				FreePorts.pick(),
				// streams end every 20 s, so the pages reconnect (new ticket,
				// last_event_id) during the tests
				settings("webclient_swipe", "--kindling.security.jwt-secret=" + JWT_SECRET,
						"--kindling.swipe.events.stream-timeout=20s", "--kindling.swipe.admin-token=" + ADMIN_TOKEN),
				logs.resolve("webclient-swipe-service.log"));
		rooms = ServiceJar.start(ServiceJar.locate(root, "matching-service"), null, JvmOptions.QUICK_START, "384m",
				FreePorts.pick(), settings("webclient_matching", "--kindling.matching.admin-token=" + ADMIN_TOKEN),
				logs.resolve("webclient-matching-service.log"));
		// the browsers start while the services do
		first = Browser.start();
		second = Browser.start();
		swipes.awaitHealthy(Duration.ofSeconds(300));
		rooms.awaitHealthy(Duration.ofSeconds(300));
		swipeApi = new ServiceClient(swipes.port());
		prometheus = new PrometheusServer(Files.createTempDirectory("webclient-prometheus"), PROMETHEUS_PORT, """
				global:
				  scrape_interval: 1s
				scrape_configs:
				  - job_name: swipe-service
				    metrics_path: /actuator/prometheus
				    authorization:
				      credentials: %s
				    static_configs:
				      - targets: ['127.0.0.1:%d']
				  - job_name: matching-service
				    metrics_path: /actuator/prometheus
				    authorization:
				      credentials: %s
				    static_configs:
				      - targets: ['127.0.0.1:%d']
				""".formatted(METRICS_TOKEN, swipes.port(), METRICS_TOKEN, rooms.port()));
		prometheus.start();
	}

	private static List<String> settings(String database, String... more) {
		List<String> settings = new ArrayList<>(List.of("--kindling.database.host=127.0.0.1",
				"--kindling.database.port=" + RealServersExtension.mariaDb().port(),
				"--kindling.database.name=" + database, "--spring.datasource.username=" + MariaDbServer.USER,
				"--spring.datasource.password=" + MariaDbServer.PASSWORD, "--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=" + RealServersExtension.redis().port(), "--kindling.outbox.wake-up-address=",
				"--kindling.web.allowed-origins=http://127.0.0.1:" + WEB_PORT,
				"--kindling.web.metrics-token=" + METRICS_TOKEN));
		settings.addAll(List.of(more));
		return settings;
	}

	@AfterAll
	static void stop() throws InterruptedException {
		for (Browser browser : new Browser[] { first, second }) {
			if (browser != null) {
				browser.close();
			}
		}
		ServiceJar.stopAll(List.of(swipes, rooms));
		if (prometheus != null) {
			prometheus.close();
		}
	}

	@AfterEach
	void neitherBrowserLoggedAnError() {
		assertThat(first.consoleErrors()).as("first browser's console").isEmpty();
		assertThat(second.consoleErrors()).as("second browser's console").isEmpty();
	}

	@Test
	void twoPeopleWhoJoinOneTopicBothSeeTheirRoomByPush() throws Exception {
		String page = "http://127.0.0.1:" + WEB_PORT + "/";
		first.open(page);
		second.open(page);
		for (Browser browser : List.of(first, second)) {
			browser.click(By.cssSelector("#topics input[value='3']"));
			browser.click(By.cssSelector("input[name='size'][value='2']"));
		}

		first.click(By.id("join"));
		first.waitFor(By.cssSelector("#room-status[data-status='waiting']"));
		assertThat(first.find(By.id("rooms-live")).getAttribute("data-stream")).isEqualTo("live");
		second.click(By.id("join"));

		String room = first.waitFor(By.cssSelector("#room-status[data-status='matched'][data-pushed='true']"))
			.getAttribute("data-room-id");
		second.waitFor(By.cssSelector("#room-status[data-status='matched'][data-pushed='true']"));
		assertThat(second.find(By.id("room-status")).getAttribute("data-room-id")).isEqualTo(room);
		for (Browser browser : List.of(first, second)) {
			assertThat(browser.waitForPresent(By.cssSelector("#activity li[data-event='matched']"))
				.getAttribute("data-room-id")).isEqualTo(room);
		}
		// they talk in the room, over its socket
		for (Browser browser : List.of(first, second)) {
			browser.waitForPresent(By.cssSelector("#room-live[data-stream='live']"));
		}
		String ana = first.waitForPresent(By.cssSelector("#room-status[data-you]")).getAttribute("data-you");
		String ben = second.waitForPresent(By.cssSelector("#room-status[data-you]")).getAttribute("data-you");
		assertThat(List.of(ana, ben)).containsExactlyInAnyOrder("A", "B");
		first.say(By.id("room-composer-text"), "Hello! Which music do you like?");
		assertThat(second.waitFor(By.cssSelector("#room-messages li.message[data-from='" + ana + "'] .text")).getText())
			.isEqualTo("Hello! Which music do you like?");
		second.say(By.id("room-composer-text"), "Mostly jazz 🎷");
		assertThat(first.waitFor(By.cssSelector("#room-messages li.message[data-from='" + ben + "'] .text")).getText())
			.isEqualTo("Mostly jazz 🎷");
		assertThat(first.findAll(By.cssSelector("#room-messages li.message"))).hasSize(2);
		assertThat(first.find(By.cssSelector("#room-messages li.message.mine .text")).getText())
			.isEqualTo("Hello! Which music do you like?");
		first.screenshot("rooms", SCREENSHOTS);

		// one leaves: the other sees it in the conversation
		first.click(By.id("leave"));
		first.waitForPresent(By.cssSelector("#room-status[data-status='idle']"));
		second.waitForPresent(By.cssSelector("#room-messages li[data-event='left']"));
		assertThat(second.find(By.cssSelector("#room-messages li[data-event='left']")).getAttribute("textContent"))
			.isEqualTo(ana + " left the room.");
		second.click(By.id("leave"));
		second.waitForPresent(By.cssSelector("#room-status[data-status='idle']"));
	}

	@Test
	void twoDemoUsersWhoLikeEachOtherBothSeeTheMatchByPush() throws Exception {
		// the town ./kindling seed-data --demo makes, on this test's own databases
		DemoTown.seed(swipeApi, JWT_SECRET, 0);
		long ada = DemoTown.demoUsers(0).get(0);
		long ben = DemoTown.demoUsers(0).get(1);
		first.open(demoPage(ada));
		second.open(demoPage(ben));
		for (Browser browser : List.of(first, second)) {
			browser.click(By.id("tab-deck"));
			browser.waitForPresent(By.cssSelector("#swipes-live[data-stream='live']"));
		}
		// a super liker of the demo user comes first, marked
		first.waitFor(By.cssSelector("#deck-body .card .badge.super"));
		first.screenshot("deck", SCREENSHOTS);

		likeWhenOnTop(first, ben);
		likeWhenOnTop(second, ada);

		String match = first.waitForPresent(By.cssSelector("#activity li[data-event='match_created']"))
			.getAttribute("data-match-id");
		second
			.waitForPresent(By.cssSelector("#activity li[data-event='match_created'][data-match-id='" + match + "']"));
		for (Browser browser : List.of(first, second)) {
			browser.waitFor(By.cssSelector("#match-dialog[data-match-id='" + match + "']"));
		}
		assertThat(swipeApi.get("/api/matches", Hs256.token(JWT_SECRET, ada)).body()).contains("\"match_id\":" + match,
				"\"user_id\":" + ben);
		first.screenshot("match", SCREENSHOTS);

		// the stream the service ended is opened again, with the last event's id: the
		// match is not sent twice
		first.waitForPresent(By.cssSelector("#swipes-live[data-stream='live']:not([data-opens='1'])"));
		assertThat(first.findAll(By.cssSelector("#activity li[data-event='match_created']"))).hasSize(1);

		first.click(By.id("match-show"));
		first.waitFor(By.cssSelector("#match-list li[data-match-id='" + match + "']"));
		first.screenshot("matches", SCREENSHOTS);

		// they message each other: Ada writes, Ben sees it unread in his list, opens the
		// thread and answers, and Ada sees the answer in hers
		first.click(By.cssSelector("#match-list li[data-match-id='" + match + "'] button.who"));
		first.waitFor(By.cssSelector("#thread[data-match-id='" + match + "']"));
		first.say(By.id("thread-composer-text"), "Hi Ben, coffee this week?");
		first.waitFor(By.cssSelector("#thread-messages li.message.mine"));
		second.click(By.id("match-close"));
		second.click(By.id("tab-matches"));
		second.waitFor(By.cssSelector("#match-list li[data-match-id='" + match + "'] .unread[data-unread='1']"));
		assertThat(second.find(By.cssSelector("#match-list li[data-match-id='" + match + "'] .last")).getText())
			.isEqualTo("Hi Ben, coffee this week?");
		second.click(By.cssSelector("#match-list li[data-match-id='" + match + "'] button.who"));
		assertThat(second.waitFor(By.cssSelector("#thread-messages li.message:not(.mine) .text")).getText())
			.isEqualTo("Hi Ben, coffee this week?");
		second.say(By.id("thread-composer-text"), "Gladly. Thursday?");
		assertThat(first.waitFor(By.cssSelector("#thread-messages li.message:not(.mine) .text")).getText())
			.isEqualTo("Gladly. Thursday?");
		first.screenshot("thread", SCREENSHOTS);
		// Ben opened the thread, which read Ada's message for every device of his
		assertThat(swipeApi.get("/api/matches", Hs256.token(JWT_SECRET, ben))
			.json()
			.get("matches")
			.get(0)
			.get("unread_count")
			.asLong()).isZero();
		first.click(By.id("thread-back"));

		// an unmatch is pushed to the other person too, and closes the open thread
		first.click(By.cssSelector("#match-list li[data-match-id='" + match + "'] button.unmatch"));
		second
			.waitForPresent(By.cssSelector("#activity li[data-event='match_removed'][data-match-id='" + match + "']"));
		second.waitFor(By.id("match-index"));
		assertThat(swipeApi.get("/api/matches", Hs256.token(JWT_SECRET, ben)).body())
			.doesNotContain("\"match_id\":" + match);
	}

	@Test
	void aDemoUserRewindsAPassSuperLikesAndBoosts() {
		DemoTown.seed(swipeApi, JWT_SECRET, 0);
		long cleo = DemoTown.demoUsers(0).get(2);
		long dev = DemoTown.demoUsers(0).get(3);
		first.open(demoPage(cleo));
		first.click(By.id("tab-deck"));
		first.waitForPresent(By.cssSelector("#swipes-live[data-stream='live']"));

		String top = first.waitFor(By.cssSelector("#deck-body .card[data-user-id]")).getAttribute("data-user-id");
		first.click(By.id("pass"));
		first.waitForPresent(By.cssSelector("#deck-body .card:not([data-user-id='" + top + "'])"));
		first.click(By.id("rewind"));
		// the deck is built again, with the person passed back on top (a super liker,
		// first again)
		first.waitFor(By.cssSelector("#deck-body .card[data-user-id='" + top + "']"));

		swipeWhenOnTop(first, dev, "super-like");
		List<Long> superLikers = new ArrayList<>();
		for (JsonNode card : swipeApi.get("/api/deck?limit=10", Hs256.token(JWT_SECRET, dev)).json().get("cards")) {
			if (card.get("super_liked_you").asBoolean()) {
				superLikers.add(card.get("user_id").asLong());
			}
		}
		assertThat(superLikers).contains(cleo);

		first.click(By.id("boost"));
		assertThat(first.waitFor(By.id("boost-status")).getText()).startsWith("Boosted until");
	}

	@Test
	void theOperatorsConsoleChartsTheLastHourDismissesAReportAndLiftsABanMadeHere() throws Exception {
		// users of their own (1001 on), who swipe; one reports another
		DemoTown.seed(swipeApi, JWT_SECRET, 1000);
		long reporter = DemoTown.demoUsers(1000).get(0);
		long reported = DemoTown.demoUsers(1000).get(1);
		Response report = swipeApi.send("POST", "/api/reports", Hs256.token(JWT_SECRET, reporter),
				"{\"user_id\":" + reported + ",\"reason\":\"HARASSMENT\",\"details\":\"made by WebClientIT\"}");
		assertThat(report.status()).as(report.body()).isEqualTo(201);
		long reportId = report.json().get("report_id").asLong();
		long banned = DemoTown.demoUsers(1000).get(2);
		Response ban = swipeApi.send("POST", "/api/admin/user-bans", ADMIN_TOKEN,
				"{\"user_id\":" + banned + ",\"reason\":\"banned by WebClientIT\"}");
		assertThat(ban.status()).as(ban.body()).isEqualTo(201);
		// a counter's first scrape is no increase: once Prometheus holds the swipes so
		// far,
		// one more (a like back, so a match too) gives the swipes chart a rate to draw
		FreePorts.await("a scrape of the swipes counter", Duration.ofSeconds(60),
				() -> !prometheus.query("kindling_swipe_swipes_total").isEmpty());
		long superLiker = 1101;
		Response like = swipeApi.send("POST", "/api/swipes", Hs256.token(JWT_SECRET, reporter),
				"{\"target_user_id\":" + superLiker + ",\"action\":\"LIKE\"}", "Idempotency-Key", "web-client-it-ops");
		assertThat(like.status()).as(like.body()).isEqualTo(200);
		try {
			FreePorts.await("a rate of swipes in Prometheus", Duration.ofSeconds(60),
					() -> !prometheus.query("sum(rate(kindling_swipe_swipes_total[2m])) > 0").isEmpty());
		}
		catch (IllegalStateException ex) {
			throw new AssertionError(
					"targets: " + prometheus.targets() + ", swipes: " + prometheus.query("kindling_swipe_swipes_total"),
					ex);
		}

		Browser desk = Browser.startDesk();
		try {
			desk.open("http://127.0.0.1:" + WEB_PORT + "/ops#token=" + ADMIN_TOKEN);
			assertThat(desk.driver().getCurrentUrl()).as("the token leaves the address bar").doesNotContain("#token");
			for (String chart : List.of("rooms", "room-wait", "swipes", "relay-lag", "errors")) {
				desk.waitForPresent(By.cssSelector("#chart-" + chart + "[data-rendered='true']"));
			}
			assertThat(desk.find(By.id("chart-swipes")).getAttribute("data-lines")).isNotEqualTo("0");
			assertThat(desk.findAll(By.cssSelector("#chart-swipes .uplot canvas"))).isNotEmpty();
			desk.waitForPresent(By.cssSelector("#room-reports[data-loaded='true']"));
			desk.waitForPresent(By.cssSelector("#topics tbody tr"));
			By item = By.cssSelector("#swipe-reports li[data-report-id='" + reportId + "']");
			assertThat(desk.waitFor(item).getText()).contains("HARASSMENT", "made by WebClientIT");
			By banRow = By.cssSelector("#user-bans tr[data-user-id='" + banned + "']");
			assertThat(desk.waitFor(banRow).getText()).contains("banned by WebClientIT", "no end");
			desk.screenshot("ops", SCREENSHOTS);

			desk.click(By.cssSelector("#user-bans tr[data-user-id='" + banned + "'] button.lift"));
			new WebDriverWait(desk.driver(), Browser.WAIT)
				.until(ExpectedConditions.invisibilityOfElementLocated(banRow));
			assertThat(swipeApi.get("/api/admin/user-bans", ADMIN_TOKEN)
				.json()
				.get("bans")
				.valueStream()
				.filter((entry) -> entry.get("user_id").asLong() == banned)).as("the ban, lifted from the console")
				.isEmpty();
			Response again = swipeApi.send("DELETE", "/api/admin/user-bans/" + banned, ADMIN_TOKEN, null);
			assertThat(again.status()).as(again.body()).isEqualTo(404);

			desk.click(By.cssSelector("#swipe-reports li[data-report-id='" + reportId + "'] button.dismiss"));
			new WebDriverWait(desk.driver(), Browser.WAIT).until(ExpectedConditions.invisibilityOfElementLocated(item));
			JsonNode resolved = swipeApi.get("/api/admin/reports?status=resolved", ADMIN_TOKEN).json();
			assertThat(resolved.get("reports")
				.valueStream()
				.filter((entry) -> entry.get("report_id").asLong() == reportId)
				.map((entry) -> entry.get("resolution").asString())).containsExactly("DISMISS");
			assertThat(desk.consoleErrors()).as("the console's page").isEmpty();
		}
		finally {
			desk.close();
		}
	}

	@Test
	void theConsoleCheckSeesAnErrorThePageLogs() {
		first.open("http://127.0.0.1:" + WEB_PORT + "/");
		((JavascriptExecutor) first.driver()).executeScript("console.error('a probe of the console check')");

		// read here, so the check after each test finds nothing left
		assertThat(first.consoleErrors())
			.anySatisfy((entry) -> assertThat(entry).contains("a probe of the console check"));
	}

	private static String demoPage(long user) {
		return "http://127.0.0.1:" + WEB_PORT + "/#token=" + Hs256.token(JWT_SECRET, user);
	}

	/** Passes the cards before {@code user}'s, then likes theirs. */
	private static void likeWhenOnTop(Browser browser, long user) {
		swipeWhenOnTop(browser, user, "like");
	}

	/** Passes the cards before {@code user}'s, then presses {@code button} on theirs. */
	private static void swipeWhenOnTop(Browser browser, long user, String button) {
		for (int passes = 0; passes < 40; passes++) {
			String top = browser.waitFor(By.cssSelector("#deck-body .card[data-user-id]")).getAttribute("data-user-id");
			if (top.equals(String.valueOf(user))) {
				browser.click(By.id(button));
				browser.waitForPresent(By.cssSelector("#deck-body .card:not([data-user-id='" + user + "'])"));
				return;
			}
			browser.click(By.id("pass"));
			browser.waitForPresent(By.cssSelector("#deck-body .card:not([data-user-id='" + top + "'])"));
		}
		throw new AssertionError("user " + user + " never came up in the deck");
	}

}
