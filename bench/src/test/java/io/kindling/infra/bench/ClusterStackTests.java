package io.kindling.infra.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterStackTests {

	/**
	 * A row of the script's STACK table: name, stacks, kind, variable, default, offset.
	 */
	private static final Pattern ROW = Pattern
		.compile("(?m)^\\t\"(\\S+)\\s+(single|cluster|both)\\s+(\\S+)\\s+(KINDLING_\\w+_PORT)\\s+\\d+\\s+(\\d+) ");

	private final ClusterStack.Ports ports = new ClusterStack.Ports(20_000);

	private final Map<String, String> environment = this.ports.environment(Path.of("/var/tmp/kindling-test"));

	@Test
	void everyPortOfTheClusterStackIsInTheBlockAndChecked() throws IOException {
		List<Integer> expected = new ArrayList<>();
		for (String[] row : clusterRows()) {
			assertThat(this.environment).as("the variable of %s", row[0]).containsKey(row[3]);
			int port = Integer.parseInt(this.environment.get(row[3])) + Integer.parseInt(row[5]);
			expected.add(port);
			switch (row[2]) {
				case "redis-node" -> expected.add(port + 10_000);
				case "galera-node" -> expected.addAll(List.of(port + 1, port + 2, port + 3));
				case "kafka-node" ->
					expected.add(Integer.parseInt(this.environment.get("KINDLING_KAFKA_CONTROLLER_PORT"))
							+ Integer.parseInt(row[5]));
				default -> {
				}
			}
		}
		// the balancer listens on the database's and each balanced service's own port
		expected.addAll(List.of(this.ports.db(), this.ports.matching(), this.ports.swipe(), this.ports.relay()));

		assertThat(this.ports.all()).doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(new HashSet<>(expected));
	}

	@Test
	void theScriptIsGivenTheStateDirAndNoSecretOfOurs() {
		assertThat(this.environment).containsEntry("KINDLING_STATE_DIR", "/var/tmp/kindling-test")
			.doesNotContainKey("KINDLING_JWT_SECRET");
	}

	private static List<String[]> clusterRows() throws IOException {
		Matcher rows = ROW.matcher(Files.readString(Path.of("..", "kindling")));
		List<String[]> cluster = new ArrayList<>();
		while (rows.find()) {
			if (!rows.group(2).equals("single")) {
				cluster.add(
						new String[] { rows.group(1), rows.group(2), rows.group(3), rows.group(4), "", rows.group(5) });
			}
		}
		assertThat(cluster).hasSizeGreaterThan(20);
		return cluster;
	}

}
