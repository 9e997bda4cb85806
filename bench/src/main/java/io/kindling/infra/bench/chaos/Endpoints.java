package io.kindling.infra.bench.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import io.kindling.infra.bench.ClusterStack;
import redis.clients.jedis.Jedis;

/** Where the chaos bench reaches the stack's stores directly, past the services. */
record Endpoints(ClusterStack.Ports ports) {

	/** A database through the balancer ("" for none). */
	Connection database(String name) throws SQLException {
		return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + this.ports.db() + "/" + name
				+ "?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=5000", "kindling", "kindling");
	}

	/** One Galera node (mariadb-N), asked directly. */
	Connection galera(String node) throws SQLException {
		int port = this.ports.db() + 100 * Integer.parseInt(node.substring(node.length() - 1));
		return DriverManager.getConnection(
				"jdbc:mysql://127.0.0.1:" + port + "/?useSSL=false&allowPublicKeyRetrieval=true&connectTimeout=2000",
				"kindling", "kindling");
	}

	/** The i-th Redis node (from 0; redis-(i+1) in the script's names). */
	Jedis redis(int i) {
		return new Jedis("127.0.0.1", this.ports.redis() + i, 2000);
	}

	/** A Redis node by the script's name, redis-N. */
	Jedis redis(String name) {
		return redis(Integer.parseInt(name.substring(name.length() - 1)) - 1);
	}

	/** The three Kafka brokers' bootstrap addresses. */
	String kafka() {
		int base = this.ports.kafka();
		return "127.0.0.1:" + base + ",127.0.0.1:" + (base + 2) + ",127.0.0.1:" + (base + 4);
	}

}
