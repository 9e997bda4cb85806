package io.kindling.infra.prometheus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The repository's alert rules: {@code promtool check rules} accepts them, their unit
 * tests pass ({@code promtool test rules}), and every alert has a summary and a runbook
 * that is a section of docs/operations.md. promtool comes with Debian's
 * {@code prometheus} package, which {@code ./kindling test} installs.
 */
class AlertRulesTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Path RULES = ROOT.resolve("config/prometheus/alerts.yml");

	private static final Path RULE_TESTS = ROOT.resolve("config/prometheus/alerts-test.yml");

	private static final String RUNBOOK = "docs/operations.md#";

	@Test
	void promtoolAcceptsTheRules() throws Exception {
		String out = promtool("check", "rules", RULES.toString());

		assertThat(out).contains("SUCCESS: " + alerts().size() + " rules found");
	}

	@Test
	void theRulesPassTheirUnitTests() throws Exception {
		String out = promtool("test", "rules", RULE_TESTS.toString());

		assertThat(out).contains("SUCCESS");
	}

	@Test
	void everyAlertHasASummaryAndARunbookSectionOfOperationsMd() throws IOException {
		Set<String> sections = Files.readAllLines(ROOT.resolve("docs/operations.md"))
			.stream()
			.filter((line) -> line.startsWith("#"))
			.map(AlertRulesTests::anchor)
			.collect(Collectors.toSet());
		List<Map<String, Object>> alerts = alerts();
		assertThat(alerts).hasSizeGreaterThanOrEqualTo(7);
		for (Map<String, Object> alert : alerts) {
			@SuppressWarnings("unchecked")
			Map<String, String> annotations = (Map<String, String>) alert.get("annotations");
			assertThat(annotations.get("summary")).as("%s's summary", alert.get("alert")).isNotBlank();
			String runbook = annotations.get("runbook");
			assertThat(runbook).as("%s's runbook", alert.get("alert")).startsWith(RUNBOOK);
			assertThat(sections).as("%s's runbook section", alert.get("alert"))
				.contains(runbook.substring(RUNBOOK.length()));
		}
	}

	@Test
	void everyAlertIsUnitTested() throws IOException {
		String tests = Files.readString(RULE_TESTS);
		for (Map<String, Object> alert : alerts()) {
			assertThat(tests).as("a unit test of %s that expects it to fire", alert.get("alert"))
				.containsPattern("alertname: " + alert.get("alert") + "\\s+exp_alerts:\\s+- exp_labels");
		}
	}

	/** Every alert rule of every group. */
	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> alerts() throws IOException {
		Map<String, Object> file = new Yaml().load(Files.readString(RULES));
		List<Map<String, Object>> alerts = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				if (rule.containsKey("alert")) {
					alerts.add(rule);
				}
			}
		}
		return alerts;
	}

	/** The anchor GitHub gives a Markdown heading. */
	private static String anchor(String heading) {
		return heading.replaceFirst("^#+\\s*", "")
			.strip()
			.toLowerCase(Locale.ROOT)
			.replaceAll("[^a-z0-9 _-]", "")
			.replace(' ', '-');
	}

	private static String promtool(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of("promtool"));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(out).isZero();
		return out;
	}

}
