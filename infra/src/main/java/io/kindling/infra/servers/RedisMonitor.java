package io.kindling.infra.servers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Redis's own {@code MONITOR} on some servers (the primaries of a cluster, say): every
 * script each server ran, with the keys it was called with and the keys its commands
 * touched, as the server executed them. A script may build key names inside Lua; a
 * cluster refuses only those of another node, not those of another slot on the same node,
 * so a test that wants "one slot per script call" needs to see them.
 *
 * <p>
 * For tests: {@code MONITOR} slows a server down, and every command is kept until
 * {@link #close()}.
 */
public final class RedisMonitor implements AutoCloseable {

	private final List<Feed> feeds = new ArrayList<>();

	private RedisMonitor() {
	}

	/** Starts monitoring; returns once every server confirmed it. */
	public static RedisMonitor start(List<RedisServer> servers) {
		RedisMonitor monitor = new RedisMonitor();
		try {
			for (RedisServer server : servers) {
				monitor.feeds.add(new Feed(server.port()));
			}
		}
		catch (RuntimeException ex) {
			monitor.close();
			throw ex;
		}
		return monitor;
	}

	/**
	 * Every script run so far ({@code EVAL} or {@code EVALSHA} with the commands it ran),
	 * server by server in the order each executed them.
	 */
	public List<ScriptRun> scriptRuns() {
		List<ScriptRun> runs = new ArrayList<>();
		for (Feed feed : this.feeds) {
			runs.addAll(feed.scriptRuns());
		}
		return runs;
	}

	/**
	 * The keys a script run's commands touched, as the server that ran it names them
	 * ({@code COMMAND GETKEYS}).
	 */
	public Set<String> touchedKeys(ScriptRun run) {
		Set<String> keys = new LinkedHashSet<>();
		Feed feed = this.feeds.stream().filter((f) -> f.port == run.port()).findFirst().orElseThrow();
		for (List<String> command : run.commands()) {
			keys.addAll(feed.keysOf(command));
		}
		return keys;
	}

	@Override
	public void close() {
		for (Feed feed : this.feeds) {
			feed.close();
		}
	}

	/**
	 * One script run on one server.
	 *
	 * @param port the server
	 * @param sha1 the script's SHA-1 (computed from its text for an {@code EVAL})
	 * @param keys the keys it was called with
	 * @param commands each command it ran, name first
	 */
	public record ScriptRun(int port, String sha1, List<String> keys, List<List<String>> commands) {

	}

	/** The monitor of one server: a connection that does nothing but read its feed. */
	private static final class Feed {

		private final int port;

		private final Socket socket;

		private final Thread reader;

		private final List<List<String>> clientCommands = new ArrayList<>();

		/** For each client command, the script commands that followed it. */
		private final List<List<List<String>>> nested = new ArrayList<>();

		private final Map<List<String>, List<String>> keysByCommand = new HashMap<>();

		private final Jedis lookups;

		Feed(int port) {
			this.port = port;
			try {
				this.socket = new Socket(InetAddress.getLoopbackAddress(), port);
				OutputStream out = this.socket.getOutputStream();
				out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
				out.flush();
				BufferedReader in = new BufferedReader(
						new InputStreamReader(this.socket.getInputStream(), StandardCharsets.ISO_8859_1));
				String ok = in.readLine();
				if (!"+OK".equals(ok)) {
					throw new IllegalStateException("MONITOR on port " + port + " answered " + ok);
				}
				this.reader = Thread.ofPlatform().daemon().name("redis-monitor-" + port).start(() -> read(in));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			this.lookups = new Jedis("127.0.0.1", port, 5_000);
		}

		private void read(BufferedReader in) {
			try {
				for (String line = in.readLine(); line != null; line = in.readLine()) {
					if (line.startsWith("+")) {
						record(line.substring(1));
					}
				}
			}
			catch (IOException ex) {
				// closed
			}
		}

		private synchronized void record(String line) {
			int open = line.indexOf('[');
			int close = line.indexOf("] ", open);
			if (open < 0 || close < 0) {
				return;
			}
			String source = line.substring(open + 1, close);
			List<String> command = arguments(line.substring(close + 2));
			if (command.isEmpty()) {
				return;
			}
			if (source.endsWith(" lua")) {
				// a script's own command comes right after the EVAL/EVALSHA that ran it
				if (!this.nested.isEmpty()) {
					this.nested.get(this.nested.size() - 1).add(command);
				}
				return;
			}
			this.clientCommands.add(command);
			this.nested.add(new ArrayList<>());
		}

		synchronized List<ScriptRun> scriptRuns() {
			List<ScriptRun> runs = new ArrayList<>();
			for (int i = 0; i < this.clientCommands.size(); i++) {
				List<String> command = this.clientCommands.get(i);
				String name = command.get(0).toUpperCase(Locale.ROOT);
				if (!(name.equals("EVAL") || name.equals("EVALSHA")) || command.size() < 3) {
					continue;
				}
				int keyCount = Integer.parseInt(command.get(2));
				String sha1 = name.equals("EVALSHA") ? command.get(1).toLowerCase(Locale.ROOT) : sha1(command.get(1));
				runs.add(new ScriptRun(this.port, sha1, List.copyOf(command.subList(3, 3 + keyCount)),
						List.copyOf(this.nested.get(i))));
			}
			return runs;
		}

		synchronized List<String> keysOf(List<String> command) {
			return this.keysByCommand.computeIfAbsent(command, (c) -> {
				byte[][] arguments = new byte[c.size() + 1][];
				arguments[0] = "GETKEYS".getBytes(StandardCharsets.US_ASCII);
				for (int i = 0; i < c.size(); i++) {
					arguments[i + 1] = c.get(i).getBytes(StandardCharsets.ISO_8859_1);
				}
				try {
					List<?> keys = (List<?>) this.lookups.sendCommand(Protocol.Command.COMMAND, arguments);
					return keys.stream().map((key) -> new String((byte[]) key, StandardCharsets.ISO_8859_1)).toList();
				}
				catch (JedisDataException ex) {
					// "the command has no key arguments"
					return List.of();
				}
			});
		}

		void close() {
			try {
				this.socket.close();
				this.reader.join(5_000);
			}
			catch (IOException ex) {
				// going away anyway
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.lookups.close();
		}

		/**
		 * The arguments of a monitor line, each as its bytes (ISO-8859-1): Redis quotes
		 * every one and escapes {@code \" \\ \n \r \t \a \b} and other bytes as
		 * {@code \xHH}.
		 */
		static List<String> arguments(String quoted) {
			List<String> arguments = new ArrayList<>();
			int i = 0;
			while (i < quoted.length()) {
				if (quoted.charAt(i) != '"') {
					i++;
					continue;
				}
				StringBuilder argument = new StringBuilder();
				i++;
				while (i < quoted.length() && quoted.charAt(i) != '"') {
					char c = quoted.charAt(i);
					if (c == '\\' && i + 1 < quoted.length()) {
						char escaped = quoted.charAt(i + 1);
						switch (escaped) {
							case 'n' -> argument.append('\n');
							case 'r' -> argument.append('\r');
							case 't' -> argument.append('\t');
							case 'a' -> argument.append('\u0007');
							case 'b' -> argument.append('\b');
							case 'x' -> {
								argument.append((char) Integer.parseInt(quoted.substring(i + 2, i + 4), 16));
								i += 2;
							}
							default -> argument.append(escaped);
						}
						i += 2;
					}
					else {
						argument.append(c);
						i++;
					}
				}
				arguments.add(argument.toString());
				i++;
			}
			return arguments;
		}

		private static String sha1(String script) {
			try {
				byte[] digest = java.security.MessageDigest.getInstance("SHA-1")
					.digest(script.getBytes(StandardCharsets.ISO_8859_1));
				return java.util.HexFormat.of().formatHex(digest);
			}
			catch (java.security.NoSuchAlgorithmException ex) {
				throw new IllegalStateException("every JDK has SHA-1", ex);
			}
		}

	}

}
