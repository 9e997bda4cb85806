package io.kindling.swipe.swipe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.kindling.infra.servers.RedisMonitor;
import io.kindling.infra.servers.RedisServer;
import io.kindling.redis.LuaScript;
import redis.clients.jedis.util.JedisClusterCRC16;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records every Lua script call of the service twice over: the keys each call is made
 * with, where every script runs ({@link LuaScript#listen}), and what the cluster's
 * primaries executed ({@code MONITOR}), including keys a script names inside Lua. Then it
 * asserts that every script on the service's class path was called, and that each call
 * stayed in one hash slot.
 */
final class ScriptSlots implements AutoCloseable {

	record Call(LuaScript<?> script, List<String> keys) {

	}

	private final List<Call> calls = new CopyOnWriteArrayList<>();

	private final Map<String, LuaScript<?>> scriptsBySha = new ConcurrentHashMap<>();

	private final LuaScript.Listening listening;

	private final RedisMonitor monitor;

	ScriptSlots(List<RedisServer> primaries) {
		this.monitor = RedisMonitor.start(primaries);
		this.listening = LuaScript.listen((script, keys) -> {
			this.calls.add(new Call(script, List.copyOf(keys)));
			this.scriptsBySha.put(script.sha1(), script);
		});
	}

	/** The files under {@code scripts/} on the class path, without {@code .lua}. */
	static Set<String> scriptFiles() {
		try {
			Set<String> files = new TreeSet<>();
			for (Resource resource : new PathMatchingResourcePatternResolver()
				.getResources("classpath*:scripts/*.lua")) {
				String name = resource.getFilename();
				if (name != null) {
					files.add(name.substring(0, name.length() - ".lua".length()));
				}
			}
			return files;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Calls so far of the scripts made of this file. */
	List<Call> callsOf(String file) {
		return this.calls.stream().filter((call) -> call.script().files().contains(file)).toList();
	}

	/**
	 * Every script file was called, every call's keys hash to one slot, and every command
	 * a script ran on a primary touched only keys of that slot.
	 */
	void assertEveryScriptCalledAndEachCallInOneSlot(Set<String> files) {
		Set<String> called = this.calls.stream()
			.flatMap((call) -> call.script().files().stream())
			.collect(Collectors.toCollection(TreeSet::new));
		assertThat(called).as("script files called").containsAll(files);

		Map<String, Integer> callsPerScript = new TreeMap<>();
		for (Call call : this.calls) {
			assertThat(call.keys()).as("%s is called with keys", call.script().name()).isNotEmpty();
			assertThat(slots(call.keys())).as("slots of one %s call, keys %s", call.script().name(), call.keys())
				.hasSize(1);
			callsPerScript.merge(call.script().name(), 1, Integer::sum);
		}

		Map<String, Integer> runsPerScript = new TreeMap<>();
		List<String> crossings = new ArrayList<>();
		for (RedisMonitor.ScriptRun run : this.monitor.scriptRuns()) {
			LuaScript<?> script = this.scriptsBySha.get(run.sha1());
			if (script == null) {
				continue; // not the service's (a test's own EVAL)
			}
			Set<String> keys = new TreeSet<>(run.keys());
			keys.addAll(this.monitor.touchedKeys(run));
			if (slots(keys).size() != 1) {
				crossings.add(script.name() + " on port " + run.port() + " touched " + keys);
			}
			runsPerScript.merge(script.name(), 1, Integer::sum);
		}
		assertThat(crossings).as("script runs that touched more than one slot").isEmpty();
		assertThat(runsPerScript.keySet()).as("scripts the primaries were seen running")
			.containsAll(callsPerScript.keySet());
		System.out.printf("script calls per script: %s%nruns seen by MONITOR on the primaries: %s%n", callsPerScript,
				runsPerScript);
	}

	static Set<Integer> slots(Iterable<String> keys) {
		Set<Integer> slots = new TreeSet<>();
		for (String key : keys) {
			slots.add(JedisClusterCRC16.getSlot(key));
		}
		return slots;
	}

	@Override
	public void close() {
		this.listening.close();
		this.monitor.close();
	}

}
