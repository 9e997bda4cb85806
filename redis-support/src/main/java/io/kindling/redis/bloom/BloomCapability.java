package io.kindling.redis.bloom;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Whether the Redis behind a connection factory has RedisBloom: {@code COMMAND INFO
 * BF.RESERVE} answers a nil entry for an unknown command.
 */
public final class BloomCapability {

	private BloomCapability() {
	}

	public static boolean moduleLoaded(RedisConnectionFactory connectionFactory) {
		try (var connection = connectionFactory.getConnection()) {
			Object info = connection.execute("COMMAND", "INFO".getBytes(StandardCharsets.UTF_8),
					"BF.RESERVE".getBytes(StandardCharsets.UTF_8));
			return info instanceof List<?> entries && !entries.isEmpty() && entries.get(0) != null;
		}
	}

}
