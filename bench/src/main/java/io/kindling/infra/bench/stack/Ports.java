package io.kindling.infra.bench.stack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import io.kindling.infra.servers.FreePorts;

/**
 * The drill's ports, all from one base: six Redis nodes (and their buses at +10000), the
 * database's balancer port (its three Galera nodes at +100, +200 and +300, each with
 * three ports above it), three Kafka nodes with their controllers, the three services'
 * balancer ports (their instances at +100 and +200) and the web client's.
 */
record Ports(int base) {

	static Ports free() {
		SplittableRandom random = new SplittableRandom();
		for (int attempt = 0; attempt < 50; attempt++) {
			// below Linux's ephemeral range (32768 up), where an outgoing connection
			// can take a port between the check and the bind
			Ports ports = new Ports(20_000 + 10 * random.nextInt(270));
			if (ports.all().stream().noneMatch(FreePorts::isOpen)) {
				return ports;
			}
		}
		throw new IllegalStateException("no free block of ports for the drill");
	}

	int redis() {
		return this.base;
	}

	int db() {
		return this.base + 6;
	}

	int kafka() {
		return this.base + 10;
	}

	int matching() {
		return this.base + 20;
	}

	int swipe() {
		return this.base + 21;
	}

	int relay() {
		return this.base + 22;
	}

	/** The web client's: left at its default, it met whatever else ran on 8080. */
	int web() {
		return this.base + 23;
	}

	List<Integer> all() {
		List<Integer> ports = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			ports.add(redis() + i);
			ports.add(redis() + i + 10_000);
		}
		ports.add(db());
		// the three Galera nodes behind the database's balancer port, each with its
		// replication, IST and SST ports above it
		for (int node = 1; node <= 3; node++) {
			for (int i = 0; i < 4; i++) {
				ports.add(db() + 100 * node + i);
			}
		}
		for (int i = 0; i < 6; i++) {
			ports.add(kafka() + i);
		}
		for (int service : List.of(matching(), swipe(), relay())) {
			ports.addAll(List.of(service, service + 100, service + 200));
		}
		ports.add(web());
		return ports;
	}

	Map<String, String> environment(Path state) {
		Map<String, String> environment = new HashMap<>();
		environment.put("KINDLING_STATE_DIR", state.toString());
		environment.put("KINDLING_REDIS_PORT", String.valueOf(redis()));
		environment.put("KINDLING_DB_PORT", String.valueOf(db()));
		environment.put("KINDLING_KAFKA_PORT", String.valueOf(kafka()));
		environment.put("KINDLING_KAFKA_CONTROLLER_PORT", String.valueOf(kafka() + 1));
		environment.put("KINDLING_MATCHING_PORT", String.valueOf(matching()));
		environment.put("KINDLING_SWIPE_PORT", String.valueOf(swipe()));
		environment.put("KINDLING_RELAY_PORT", String.valueOf(relay()));
		environment.put("KINDLING_WEB_PORT", String.valueOf(web()));
		return environment;
	}

}
