package io.kindling.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.exceptions.JedisException;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisExceptionConverter;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs one script several times, each call with the keys of one slot (a token's, a
 * user's): in one round trip where one connection reaches every key (one server, or the
 * Sentinels' primary), one by one on a cluster, whose slots live on several nodes. Either
 * way by SHA, loading the script again after {@code NOSCRIPT} (a promoted replica has
 * none cached).
 */
public final class ScriptCalls {

	private static final JedisExceptionConverter EXCEPTIONS = new JedisExceptionConverter();

	private final StringRedisTemplate redis;

	private final boolean pipelined;

	public ScriptCalls(StringRedisTemplate redis) {
		this.redis = redis;
		this.pipelined = !(redis.getConnectionFactory() instanceof JedisConnectionFactory jedis
				&& jedis.isRedisClusterAware());
	}

	/** Whether calls for several slots share one round trip here. */
	public boolean pipelined() {
		return this.pipelined;
	}

	/**
	 * @return each call's integer answer, in order
	 */
	public List<Long> integers(LuaScript<Long> script, List<Call> calls) {
		if (calls.isEmpty()) {
			return List.of();
		}
		if (!this.pipelined || calls.size() == 1) {
			return calls.stream()
				.map((call) -> Objects.requireNonNull(script.run(this.redis, call.keys(), call.argArray())))
				.toList();
		}
		List<Object> results = pipelined(script, calls);
		List<Long> answers = new ArrayList<>(calls.size());
		for (int i = 0; i < calls.size(); i++) {
			Object result = results.get(i);
			answers.add((result instanceof Long answer) ? answer
					: Objects.requireNonNull(script.run(this.redis, calls.get(i).keys(), calls.get(i).argArray())));
		}
		return answers;
	}

	/**
	 * @return each call's list answer, in order, its elements as text
	 */
	public List<List<String>> lists(LuaScript<List> script, List<Call> calls) {
		if (calls.isEmpty()) {
			return List.of();
		}
		List<List<String>> answers = new ArrayList<>(calls.size());
		if (!this.pipelined || calls.size() == 1) {
			for (Call call : calls) {
				answers.add(texts(script.run(this.redis, call.keys(), call.argArray())));
			}
			return answers;
		}
		List<Object> results = pipelined(script, calls);
		for (int i = 0; i < calls.size(); i++) {
			Object result = results.get(i);
			answers.add(texts((result instanceof List<?> answer) ? answer
					: script.run(this.redis, calls.get(i).keys(), calls.get(i).argArray())));
		}
		return answers;
	}

	/** Every call in one pipeline: each one's answer, or its {@code NOSCRIPT}. */
	private List<Object> pipelined(LuaScript<?> script, List<Call> calls) {
		return pipeline((pipeline) -> {
			for (Call call : calls) {
				evalSha(pipeline, script, call);
			}
		});
	}

	private static List<String> texts(@Nullable List<?> answer) {
		List<String> texts = new ArrayList<>();
		if (answer != null) {
			for (Object element : answer) {
				texts.add(Objects.requireNonNullElse(text(element), ""));
			}
		}
		return texts;
	}

	/**
	 * Runs the pipeline's commands on Jedis's own pipeline, one connection's round trip;
	 * a {@code NOSCRIPT} answer stays in the list (as the exception) for the caller to
	 * run that call again, every other error is thrown. Not through Spring Data Redis's
	 * pipelining, which builds a proxy of Jedis's pipeline for every command queued: a
	 * tenth of a message writer's CPU went to that.
	 */
	public List<Object> pipeline(PipelineBody body) {
		try {
			// the connection itself, not a proxy that stops a callback closing it:
			// nothing here closes it
			return Objects.requireNonNull(this.redis.execute((RedisCallback<List<Object>>) (connection) -> {
				// closed, so synced, even when the body fails: the connection goes back
				// to its pool with no answer left unread
				try (Pipeline pipeline = ((Jedis) connection.getNativeConnection()).pipelined()) {
					body.send(pipeline);
					return answers(pipeline.syncAndReturnAll());
				}
			}, true));
		}
		catch (JedisException ex) {
			// a connection lost in the pipeline's sync: an outage like any other, a 503
			// to retry
			throw translated(ex);
		}
	}

	/**
	 * The answers of a pipeline, each error among them thrown but {@code NOSCRIPT}, which
	 * the caller answers by running that call again.
	 */
	private static List<Object> answers(List<Object> results) {
		for (Object result : results) {
			if (result instanceof JedisException failure && !noScript(failure)) {
				throw translated(failure);
			}
		}
		return results;
	}

	private static DataAccessException translated(JedisException ex) {
		DataAccessException translated = EXCEPTIONS.convert(ex);
		return (translated != null) ? translated : new RedisSystemException(ex.getMessage(), ex);
	}

	public static void evalSha(Pipeline pipeline, LuaScript<?> script, Call call) {
		script.called(call.keys());
		byte[][] keysAndArgs = new byte[call.keys().size() + call.args().size()][];
		int i = 0;
		for (String key : call.keys()) {
			keysAndArgs[i++] = key.getBytes(StandardCharsets.UTF_8);
		}
		for (String arg : call.args()) {
			keysAndArgs[i++] = arg.getBytes(StandardCharsets.UTF_8);
		}
		pipeline.evalsha(script.sha1().getBytes(StandardCharsets.UTF_8), call.keys().size(), keysAndArgs);
	}

	private static boolean noScript(@Nullable Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && cause.getMessage().contains("NOSCRIPT")) {
				return true;
			}
		}
		return false;
	}

	/** A text answer of a pipelined command, whatever bytes or type it came as. */
	public static @Nullable String text(@Nullable Object raw) {
		return switch (raw) {
			case null -> null;
			case byte[] bytes -> new String(bytes, StandardCharsets.UTF_8);
			default -> String.valueOf(raw);
		};
	}

	public interface PipelineBody {

		void send(Pipeline pipeline);

	}

	/** One call's keys and arguments. */
	public record Call(List<String> keys, List<String> args) {

		public String[] argArray() {
			return this.args.toArray(String[]::new);
		}

	}

}
