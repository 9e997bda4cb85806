package io.kindling.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * A Lua script from {@code src/main/resources/scripts/<name>.lua}, read once and run by
 * SHA: Spring Data Redis sends {@code EVALSHA} and falls back to {@code EVAL} (which
 * loads it) on {@code NOSCRIPT}, so a flushed, restarted or newly promoted Redis costs
 * one round trip, not an error.
 *
 * @param <T> what the script returns: {@code Long}, {@code List}, {@code Boolean} or
 * {@code String}
 */
public final class LuaScript<T> {

	private static final List<CallListener> listeners = new CopyOnWriteArrayList<>();

	private final String name;

	private final List<String> files;

	private final RedisScript<T> script;

	private LuaScript(String name, List<String> files, RedisScript<T> script) {
		this.name = name;
		this.files = files;
		this.script = script;
	}

	public static <T> LuaScript<T> load(String name, Class<T> resultType) {
		return new LuaScript<>(name, List.of(name), new DefaultRedisScript<>(source(name), resultType));
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
		return new LuaScript<>(name, List.of(files), new DefaultRedisScript<>(source.toString(), resultType));
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

	/** The files under {@code scripts/} (without {@code .lua}) this script is made of. */
	public List<String> files() {
		return this.files;
	}

	public String sha1() {
		return this.script.getSha1();
	}

	public RedisScript<T> script() {
		return this.script;
	}

	/** Runs the script; the template's serializers turn keys and arguments into bytes. */
	public T run(RedisTemplate<String, String> redis, List<String> keys, String... args) {
		called(keys);
		return redis.execute(this.script, keys, (Object[]) args);
	}

	/**
	 * Runs the script and reads its answer with another serializer than the template's
	 * (raw bytes, say).
	 */
	public T run(RedisTemplate<String, String> redis, RedisSerializer<?> resultSerializer, List<String> keys,
			String... args) {
		called(keys);
		@SuppressWarnings("unchecked")
		RedisSerializer<T> reader = (RedisSerializer<T>) resultSerializer;
		return redis.execute(this.script, RedisSerializer.string(), reader, keys, (Object[]) args);
	}

	/**
	 * Tells the listeners of a call about to be sent. {@link #run} does it; code that
	 * sends the script some other way (inside a pipeline) calls it itself.
	 */
	public void called(List<String> keys) {
		for (CallListener listener : listeners) {
			listener.called(this, keys);
		}
	}

	/**
	 * Tells the listener of every script call from now on, until the returned handle is
	 * closed. The tests use it to record the keys each script is called with (on Redis
	 * Cluster they must all hash to one slot).
	 */
	public static Listening listen(CallListener listener) {
		listeners.add(listener);
		return () -> listeners.remove(listener);
	}

	/** Told of each script call just before it is sent, on the calling thread. */
	@FunctionalInterface
	public interface CallListener {

		void called(LuaScript<?> script, List<String> keys);

	}

	/** Stops a listener. */
	@FunctionalInterface
	public interface Listening extends AutoCloseable {

		@Override
		void close();

	}

}
