package io.kindling.infra.test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.kindling.infra.servers.FreePorts;
import io.kindling.infra.servers.RedisMonitor;
import io.kindling.infra.servers.RedisServer;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MONITOR sees each script run with the keys it was called with and the keys its commands
 * touched, also those it names inside Lua, whatever bytes its arguments hold.
 */
@RealServers(Server.REDIS)
class RedisMonitorTests {

	private static final String SCRIPT = "redis.call('SET', KEYS[1], ARGV[1]) "
			+ "redis.call('HSET', KEYS[1] .. ':more', 'field', ARGV[1]) return redis.call('GET', 'elsewhere')";

	@Test
	void eachScriptRunWithItsKeysAndTheKeysItsCommandsTouched() {
		RedisServer redis = RealServersExtension.redis();
		String awkward = "{\"quoted\":\"a \\\\ b\",\"line\":\"1\n2\",\"accent\":\"é\"}";
		try (RedisMonitor monitor = RedisMonitor.start(List.of(redis));
				Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
			String sha1 = jedis.scriptLoad(SCRIPT);
			jedis.evalsha(sha1, List.of("monitored:{1}"), List.of(awkward));
			jedis.eval(SCRIPT, List.of("monitored:{2}"), List.of("plain"));
			jedis.set("not-a-script", "x");

			FreePorts.await("two script runs seen", Duration.ofSeconds(10), () -> monitor.scriptRuns().size() == 2);
			List<RedisMonitor.ScriptRun> runs = monitor.scriptRuns();
			assertThat(runs).extracting(RedisMonitor.ScriptRun::sha1).containsExactly(sha1, sha1);
			assertThat(runs.get(0).keys()).containsExactly("monitored:{1}");
			assertThat(runs.get(0).commands()).hasSize(3);
			// arguments come back as their bytes, one char per byte
			assertThat(runs.get(0).commands().get(0)).containsExactly("SET", "monitored:{1}",
					new String(awkward.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
			assertThat(monitor.touchedKeys(runs.get(0)))
				.isEqualTo(Set.of("monitored:{1}", "monitored:{1}:more", "elsewhere"));
			assertThat(runs.get(1).keys()).containsExactly("monitored:{2}");
			assertThat(monitor.touchedKeys(runs.get(1)))
				.isEqualTo(Set.of("monitored:{2}", "monitored:{2}:more", "elsewhere"));
		}
	}

}
