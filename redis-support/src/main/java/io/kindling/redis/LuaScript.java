package io.kindling.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A Lua script from {@code src/main/resources/scripts/<name>.lua}, read once and run by
 * SHA: Spring Data Redis sends {@code EVALSHA} and falls back to {@code EVAL} (which
 * loads it) on {@code NOSCRIPT}, so a flushed or restarted Redis costs one round trip,
 * not an error.
 *
 * @param <T> what the script returns: {@code Long}, {@code List}, {@code Boolean} or
 * {@code String}
 */
public final class LuaScript<T> {

	private final String name;

	private final RedisScript<T> script;

	private LuaScript(String name, RedisScript<T> script) {
		this.name = name;
		this.script = script;
	}

	public static <T> LuaScript<T> load(String name, Class<T> resultType) {
		return new LuaScript<>(name, new DefaultRedisScript<>(source(name), resultType));
	}

	/**
	 * One script made of several files run in order, as one atomic call: the first files
	 * are preludes that either return early or fall through into the next.
	 * @param name what the script is called in logs and metrics
	 * @param files the file names under {@code scripts/}, without {@code .lua}
	 */
	public static <T> LuaScript<T> chain(String name, Class<T> resultType, String... files) {
		StringBuilder source = new StringBuilder();
		for (String file : files) {
			source.append(source(file)).append('\n');
		}
		return new LuaScript<>(name, new DefaultRedisScript<>(source.toString(), resultType));
	}

	private static String source(String file) {
		ClassPathResource resource = new ClassPathResource("scripts/" + file + ".lua");
		try {
			return resource.getContentAsString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("no Lua script at classpath:scripts/" + file + ".lua", ex);
		}
	}

	public String name() {
		return this.name;
	}

	public String sha1() {
		return this.script.getSha1();
	}

	public RedisScript<T> script() {
		return this.script;
	}

	/** Runs the script; the template's serializers turn keys and arguments into bytes. */
	public T run(RedisTemplate<String, String> redis, List<String> keys, String... args) {
		return redis.execute(this.script, keys, (Object[]) args);
	}

}
