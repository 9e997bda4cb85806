package io.kindling.infra.bench.stack;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import redis.clients.jedis.Jedis;

/** {@code CLUSTER NODES}, as one node sees it: who is primary of which slots. */
record ClusterNodes(List<Node> nodes) {

	record Node(String id, int port, boolean primary, String primaryId, List<int[]> slots) {

		boolean holds(int slot) {
			return this.slots.stream().anyMatch((range) -> range[0] <= slot && slot <= range[1]);
		}

	}

	static ClusterNodes read(int port) {
		try (Jedis jedis = new Jedis("127.0.0.1", port)) {
			List<Node> nodes = new ArrayList<>();
			for (String line : jedis.clusterNodes().lines().toList()) {
				String[] fields = line.split(" ");
				String address = fields[1].substring(0, fields[1].indexOf('@'));
				boolean failed = fields[2].contains("fail") && !fields[2].contains("fail?");
				if (failed) {
					continue;
				}
				List<int[]> slots = new ArrayList<>();
				for (int i = 8; i < fields.length; i++) {
					if (fields[i].startsWith("[")) {
						continue;
					}
					String[] range = fields[i].split("-");
					int from = Integer.parseInt(range[0]);
					slots.add(new int[] { from, (range.length > 1) ? Integer.parseInt(range[1]) : from });
				}
				nodes.add(new Node(fields[0], Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)),
						fields[2].contains("master"), fields[3], slots));
			}
			return new ClusterNodes(nodes);
		}
	}

	Node primaryOf(int slot) {
		return this.nodes.stream()
			.filter((node) -> node.primary() && node.holds(slot))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no live primary holds slot " + slot));
	}

	Node replicaOf(Node primary) {
		Optional<Node> replica = this.nodes.stream()
			.filter((node) -> !node.primary() && node.primaryId().equals(primary.id()))
			.findFirst();
		return replica.orElseThrow(() -> new IllegalStateException("no replica of " + primary.port()));
	}

}
