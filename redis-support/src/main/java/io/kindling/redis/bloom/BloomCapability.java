package io.kindling.redis.bloom;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Whether the Redis behind a connection factory has RedisBloom: {@code COMMAND INFO
 * BF.RESERVE} answers a nil entry for an unknown command.
 */
public final class BloomCapability {

	private static final byte[] INFO = "INFO".getBytes(StandardCharsets.UTF_8);

	private static final byte[] BF_RESERVE = "BF.RESERVE".getBytes(StandardCharsets.UTF_8);

	private BloomCapability() {
	}

	public static boolean moduleLoaded(RedisConnectionFactory connectionFactory) {
		try (RedisConnection connection = connectionFactory.getConnection()) {
			Object info = (connection instanceof RedisClusterConnection cluster)
					// routed like a key to the primary of its slot: an "arbitrary node"
					// can be
					// a replica the client has not discovered yet ("unknown to cluster")
					? cluster.execute("COMMAND", INFO, List.of(BF_RESERVE))
					: connection.execute("COMMAND", INFO, BF_RESERVE);
			return info instanceof List<?> entries && !entries.isEmpty() && entries.get(0) != null;
		}
	}

}
