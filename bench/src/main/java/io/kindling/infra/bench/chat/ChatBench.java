package io.kindling.infra.bench.chat;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.JvmCpu;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.Phase;
import io.kindling.infra.bench.Usage;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.MariaDbServer;
import io.kindling.infra.servers.ServiceJar;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code ./kindling bench chat [--rooms 50] [--clients 16,32,64] [--seconds 20] [--warmup 60]}:
 * both figures of conversations from one run, on its own Redis, MariaDB, two
 * matching-service jars and a swipe-service jar. Rooms: in each of {@code --rooms} rooms
 * a message is sent on instance A and timed until the other member's socket on B gets it,
 * one in flight per room for the most a second, then an open loop at a quarter of that
 * (the members' rate limit lifted, so the fan-out is measured, not the limit). Matches:
 * clients post to random ones of 100 matches for each of the most clients, through
 * swipe-service (its per-user rate on, every user far under it), against the same rows
 * inserted by raw JDBC into as many matches of their own, each side with the number of
 * {@code --clients} it is fastest with, in four rounds of alternating slices, the two
 * sides swapping places every round, so that the machine's load meets both alike, each
 * slice after one as long unmeasured of the same side, after a warm-up that lasts until
 * the service's JIT compiler has settled; a third slice of each round times the liveness
 * probe, the framework's floor on the same machine. {@code --rooms 0} measures the
 * matches alone, without the matching-service jars (to profile swipe-service, say).
 */
public final class ChatBench {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final double ROOM_P99_TARGET_MS = 20;

	private static final double MATCH_RATIO_TARGET = 0.6;

	/**
	 * The matches each side writes in, this many for each of the most clients: the same
	 * number for both sides whatever number of clients each is measured with, so that
	 * neither finds fewer of its index pages in MariaDB's buffer pool.
	 */
	private static final int MATCHES_PER_CLIENT = 100;

	/**
	 * Rounds of the match slices, each {@code --seconds} divided by them: the two sides
	 * swap places every round.
	 */
	private static final int ROUNDS = 4;

	/** How long each number of clients is tried for, after as long unmeasured. */
	private static final Duration TRIAL = Duration.ofSeconds(3);

	private static final String TEXT = "Are you free on Thursday for a coffee near the station?";

	private ChatBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int rooms = (int) options.number("--rooms", 50);
		List<Integer> clientCounts = Stream.of(options.text("--clients", "16,32,64").split(","))
			.map(Integer::valueOf)
			.toList();
		int clients = clientCounts.stream().mapToInt(Integer::intValue).max().orElseThrow();
		int matches = clients * MATCHES_PER_CLIENT;
		Duration seconds = Duration.ofSeconds(options.number("--seconds", 20));
		// the JIT needs a minute of this before the services run at their real speed
		Duration warmup = Duration.ofSeconds(options.number("--warmup", 60));
		try (BenchStack stack = BenchStack.of("chat", options)
			.redis()
			.mariaDb("kindling_matching", "kindling_swipe")
			.start()) {
			String secret = "chat-bench-" + UUID.randomUUID() + "-0123456789abcdef";
			ServiceJar swipes = stack.startService("swipe-service", "512m", "swipe-service.log",
					settings(options, "--kindling.security.jwt-secret=" + secret, BenchStack.NO_OVERLOAD_LIMIT));
			System.out.printf(
					"chat bench: %d rooms across two instances; up to %d clients, %d matches a side; %d s "
							+ "measured after %d s of warm-up%n",
					rooms, clients, matches, seconds.toSeconds(), warmup.toSeconds());

			Result most = Result.NONE;
			Result steady = Result.NONE;
			double steadyRate = 0;
			if (rooms > 0) {
				List<String> roomSettings = settings(options, "--kindling.matching.rate-limit.joins-per-minute=0",
						"--kindling.matching.rate-limit.sessions-per-minute=0",
						"--kindling.matching.chat.messages-per-second=1000000",
						"--kindling.matching.chat.burst=1000000");
				ServiceJar a = stack.startService("matching-service", "512m", "matching-a.log", roomSettings);
				ServiceJar b = stack.startService("matching-service", "512m", "matching-b.log", roomSettings);
				Fanout fanout = Fanout.open(a.port(), b.port(), rooms);
				Load.closedLoop(rooms, warmup, fanout::roundTrip);
				most = Load.closedLoop(rooms, seconds, fanout::roundTrip);
				steadyRate = most.perSecond() / 4;
				steady = Load.openLoop(steadyRate, warmup, seconds, fanout::roundTrip).measured();
			}
			String jdbcUrl = stack.jdbcUrl("kindling_swipe");
			seedMatches(jdbcUrl, matches);
			Load.Operation http = throughTheService(new ServiceClient(swipes.port(), Duration.ofSeconds(10)), secret,
					matches);
			List<Connection> connections = new ArrayList<>();
			for (int client = 0; client < clients; client++) {
				connections.add(DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD));
				connections.get(client).setAutoCommit(false);
			}
			Load.Operation raw = (call) -> insertRaw(connections.get(call.index()), matches);
			Load.Operation probe = liveness(new ServiceClient(swipes.port(), Duration.ofSeconds(10)));
			Load.closedLoop(clients, warmup, http);
			// rounds as the measured slices go, the raw inserts' and the probe's paths
			// compiled too: a path first run while measured had the JIT take a fifth of
			// the service's CPU there, and the raw inserts, warmed for 5 s alone, ran
			// their first measured slice at three quarters of their speed in the next
			JvmCpu.warmUntilJitSettles(swipes.pid(), () -> {
				Load.closedLoop(clients, Duration.ofSeconds(5), http);
				Load.closedLoop(clients, Duration.ofSeconds(5), raw);
				return Load.closedLoop(clients, Duration.ofSeconds(2), probe);
			});
			// each side measured with the number of clients it is fastest with
			int serviceClients = fastest("through the service", clientCounts, http);
			int rawClients = fastest("raw JDBC", clientCounts, raw);
			String load = BenchHost.loadAverage(" ");
			Phase service = Phase.NONE;
			Phase database = Phase.NONE;
			Phase floor = Phase.NONE;
			JvmCpu serviceThreads = JvmCpu.NONE;
			List<String> roundRatios = new ArrayList<>();
			Duration slice = seconds.dividedBy(ROUNDS);
			for (int round = 0; round < ROUNDS; round++) {
				// service, raw; raw, service; ...: a machine that speeds up or slows down
				// steadily through the rounds meets both sides alike
				boolean rawFirst = (round % 2 == 1);
				Phase inserted = rawFirst ? steady(stack, rawClients, slice, raw) : Phase.NONE;
				// the sends' own lead-in, as steady() gives the raw inserts, kept out of
				// the reading of the service's threads
				Load.closedLoop(serviceClients, slice, http);
				JvmCpu before = JvmCpu.of(swipes.pid());
				Phase sent = stack.measure(() -> Load.closedLoop(serviceClients, slice, http));
				serviceThreads = serviceThreads.plus(JvmCpu.of(swipes.pid()).minus(before));
				if (!rawFirst) {
					inserted = steady(stack, rawClients, slice, raw);
				}
				roundRatios.add(String.format("%.2f (%,.0f against %,.0f/s)", sent.perSecond() / inserted.perSecond(),
						sent.perSecond(), inserted.perSecond()));
				service = service.plus(sent);
				database = database.plus(inserted);
				floor = floor.plus(stack.measure(() -> Load.closedLoop(serviceClients, slice, probe)));
			}

			double ratio = service.perSecond() / database.perSecond();
			System.out.printf("%n| figure | value |%n|---|---|%n");
			if (rooms > 0) {
				System.out.printf("| room messages a second at most (%d rooms, sent on A, received on B) | %,.0f/s |%n"
						+ "| fan-out at a quarter of that (%,.0f/s): p50 · p99 · max | %.1f · %.1f · %.1f ms (target p99 "
						+ "≤ %.0f ms: %s) |%n", rooms, most.perSecond(), steadyRate, steady.ms(50), steady.ms(99),
						steady.ms(100), ROOM_P99_TARGET_MS, (steady.ms(99) <= ROOM_P99_TARGET_MS) ? "met" : "not met");
			}
			System.out
				.printf("| match messages through swipe-service (%d clients) | %,.0f/s (p99 %.1f ms) |%n| the same "
						+ "rows by raw JDBC (message + outbox row; %d clients) | %,.0f/s (p99 %.1f ms) |%n| ratio | %.2f (target ≥ "
						+ "%.1f: %s) |%n| CPU per message, ms (services, MariaDB, Redis, bench): service · raw | %s · "
						+ "%s |%n| SQL statements · commits · Redis commands per message: service · raw | %s · %s |%n%n"
						+ "errors: rooms %d + %d, matches %d, raw %d; load average before the match slices: %s, after: %s%n",
						serviceClients, service.perSecond(), service.ms(99), rawClients, database.perSecond(),
						database.ms(99), ratio, MATCH_RATIO_TARGET, (ratio >= MATCH_RATIO_TARGET) ? "met" : "not met",
						cpu(service), cpu(database), work(service), work(database), most.errors(), steady.errors(),
						service.result().errors(), database.result().errors(), load, BenchHost.loadAverage(" "));
			double rawMs = database.usage().cpuMs(CpuTime::total, database.result().operations());
			double serviceMs = service.usage().cpuMs(CpuTime::total, service.result().operations());
			System.out
				.printf("CPU per message, every process: service path %.3f ms, raw JDBC %.3f ms; %.1f would need the "
						+ "service path at %.3f ms.%nThe framework's floor, GET /actuator/health/liveness "
						+ "(no token, no JSON, no store) in the same slices: %,.0f/s, the service's CPU %.3f ms "
						+ "a call.%nThe service's CPU while measured: %s.%nThe ratio in each round of slices: %s.%n",
						serviceMs, rawMs, MATCH_RATIO_TARGET, rawMs / MATCH_RATIO_TARGET, floor.perSecond(),
						floor.usage().cpuMs(CpuTime::services, floor.result().operations()), serviceThreads.shares(),
						String.join(", ", roundRatios));
		}
	}

	/**
	 * The number of clients, of those given, with which the operation goes fastest, each
	 * tried for {@link #TRIAL} after as long unmeasured.
	 */
	private static int fastest(String side, List<Integer> clientCounts, Load.Operation operation) throws Exception {
		int fastest = clientCounts.get(0);
		double most = 0;
		List<String> tried = new ArrayList<>();
		for (int clients : clientCounts) {
			Load.closedLoop(clients, TRIAL, operation);
			double perSecond = Load.closedLoop(clients, TRIAL, operation).perSecond();
			tried.add(String.format("%d clients %,.0f/s", clients, perSecond));
			if (perSecond > most) {
				most = perSecond;
				fastest = clients;
			}
		}
		System.out.printf("%s: %s; measured with %d%n", side, String.join(", ", tried), fastest);
		return fastest;
	}

	/**
	 * A slice of the operation, measured after one as long unmeasured: the writes of the
	 * slice before, of the other side, are still being flushed for a few seconds, and the
	 * side that follows would pay for them.
	 */
	private static Phase steady(BenchStack stack, int clients, Duration slice, Load.Operation operation)
			throws Exception {
		Load.closedLoop(clients, slice, operation);
		return stack.measure(() -> Load.closedLoop(clients, slice, operation));
	}

	/**
	 * The cheapest call the service answers, through Tomcat and the web edge's filters
	 * but no token, body or store: what any request costs before it does anything.
	 */
	private static Load.Operation liveness(ServiceClient http) {
		return (call) -> {
			Response response = http.send(Request.of("GET", "/actuator/health/liveness"));
			if (response.status() != 200) {
				throw new IllegalStateException("liveness " + response.status());
			}
		};
	}

	/** CPU per message: the services, MariaDB, Redis and this bench's own process. */
	private static String cpu(Phase phase) {
		double messages = phase.result().operations();
		return phase.cpuByStore() + ", " + String.format("%.3f", phase.usage().cpuMs(CpuTime::bench, messages));
	}

	/** SQL statements, commits and Redis commands per message. */
	private static String work(Phase phase) {
		return String.format("%.2f, %.2f, %.2f", phase.per(Usage::sqlStatements), phase.per(Usage::sqlCommits),
				phase.per(Usage::redisCommands));
	}

	/** The bench's own settings, quiet logs, then the command line's. */
	private static List<String> settings(BenchOptions options, String... own) {
		return Stream.of(List.of(own), List.of("--logging.level.root=WARN"), options.settings())
			.flatMap(List::stream)
			.toList();
	}

	/** The rooms' sockets, and the messages on their way from A to B. */
	private static final class Fanout {

		private final Map<String, CompletableFuture<Void>> onTheirWay = new ConcurrentHashMap<>();

		private final List<WebSocket> senders = new ArrayList<>();

		private final AtomicLong nextMessage = new AtomicLong();

		static Fanout open(int portA, int portB, int rooms) {
			Fanout fanout = new Fanout();
			ServiceClient onA = new ServiceClient(portA, Duration.ofSeconds(10));
			HttpClient client = HttpClient.newHttpClient();
			for (int room = 0; room < rooms; room++) {
				String first = onA.send(Request.of("POST", "/api/sessions")).json().get("token").asString();
				String second = onA.send(Request.of("POST", "/api/sessions")).json().get("token").asString();
				onA.send(Request.of("POST", "/api/matching").bearer(first).json("{\"topic_id\":1,\"size\":2}"));
				long conversation = onA
					.send(Request.of("POST", "/api/matching").bearer(second).json("{\"topic_id\":1,\"size\":2}"))
					.json()
					.get("conversation_id")
					.asLong();
				fanout.senders.add(socket(client, portA, conversation, first, new WebSocket.Listener() {
				}));
				socket(client, portB, conversation, second, new Receiver(fanout.onTheirWay, new StringBuilder()));
			}
			return fanout;
		}

		private static WebSocket socket(HttpClient client, int port, long conversation, String token,
				WebSocket.Listener listener) {
			return client.newWebSocketBuilder()
				.header("Authorization", "Bearer " + token)
				.buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/rooms/" + conversation), listener)
				.join();
		}

		/** Sends a message on A and returns once B's socket has it. */
		void roundTrip(Load.Call call) throws Exception {
			String id = "m" + this.nextMessage.incrementAndGet();
			CompletableFuture<Void> received = new CompletableFuture<>();
			this.onTheirWay.put(id, received);
			WebSocket sender = this.senders.get(call.index() % this.senders.size());
			synchronized (sender) {
				sender
					.sendText("{\"type\":\"message\",\"text\":\"" + id + "\",\"client_message_id\":\"" + id + "\"}",
							true)
					.join();
			}
			try {
				received.get(10, TimeUnit.SECONDS);
			}
			finally {
				this.onTheirWay.remove(id);
			}
		}

	}

	/** B's socket of one room: completes each message's wait as it arrives. */
	private record Receiver(Map<String, CompletableFuture<Void>> onTheirWay,
			StringBuilder partial) implements WebSocket.Listener {

		@Override
		public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
			this.partial.append(data);
			if (last) {
				JsonNode frame = JSON.readTree(this.partial.toString());
				this.partial.setLength(0);
				if (frame.has("text")) {
					this.onTheirWay.getOrDefault(frame.get("text").asString(), new CompletableFuture<>())
						.complete(null);
				}
			}
			socket.request(1);
			return null;
		}

	}

	/**
	 * Match {@code i} is users {@code 2i-1} and {@code 2i}, from 1 to {@code matches}.
	 */
	private static void seedMatches(String jdbcUrl, int matches) throws Exception {
		try (Connection db = DriverManager.getConnection(jdbcUrl, MariaDbServer.USER, MariaDbServer.PASSWORD);
				PreparedStatement insert = db.prepareStatement(
						"INSERT INTO matches (match_id, user_id_1, user_id_2, matched_at) VALUES (?, ?, ?, NOW(6))")) {
			for (long match = 1; match <= matches; match++) {
				insert.setLong(1, match);
				insert.setLong(2, 2 * match - 1);
				insert.setLong(3, 2 * match);
				insert.addBatch();
			}
			insert.executeBatch();
		}
	}

	/**
	 * A message posted to a random one of the seeded matches, by either of its two
	 * people, each with the one token a person's app keeps for the hour.
	 */
	private static Load.Operation throughTheService(ServiceClient http, String secret, int matches) {
		Map<Long, String> tokens = new ConcurrentHashMap<>();
		return (call) -> {
			long match = ThreadLocalRandom.current().nextInt(matches) + 1;
			Response sent = http.send(Request.of("POST", "/api/matches/" + match + "/messages")
				.bearer(tokens.computeIfAbsent(2 * match - ThreadLocalRandom.current().nextInt(2),
						(user) -> Hs256.token(secret, user)))
				.json("{\"text\":\"" + TEXT + "\",\"client_message_id\":\"" + UUID.randomUUID() + "\"}"));
			if (sent.status() != 201) {
				throw new IllegalStateException(sent.status() + " " + sent.body());
			}
		};
	}

	/**
	 * The rows of a message by raw JDBC: the message and its {@code MESSAGE_SENT} row,
	 * one transaction, on the client's own connection, in a random one of as many matches
	 * as the service's sends use (ids of their own, no row in {@code matches}).
	 */
	private static void insertRaw(Connection db, int matches) throws Exception {
		long match = 1_000_000_000L + ThreadLocalRandom.current().nextInt(matches);
		Instant now = Instant.now();
		BigDecimal at = new BigDecimal(now.getEpochSecond() + "." + String.format("%09d", now.getNano()));
		try (PreparedStatement message = db.prepareStatement(
				"INSERT IGNORE INTO messages (match_id, "
						+ "from_user_id, client_message_id, text, sent_at) VALUES (?, ?, ?, ?, FROM_UNIXTIME(?))",
				Statement.RETURN_GENERATED_KEYS);
				PreparedStatement outbox = db.prepareStatement("INSERT INTO message_outbox (event_id, event_type, "
						+ "event_key, key_hash, payload, created_at) VALUES (?, 'MESSAGE_SENT', ?, ?, ?, FROM_UNIXTIME(?))")) {
			message.setLong(1, match);
			message.setLong(2, 2 * match);
			message.setString(3, UUID.randomUUID().toString());
			message.setString(4, TEXT);
			message.setBigDecimal(5, at);
			message.executeUpdate();
			long messageId;
			try (ResultSet keys = message.getGeneratedKeys()) {
				keys.next();
				messageId = keys.getLong(1);
			}
			String eventId = UUID.nameUUIDFromBytes(("kindling.messages/" + messageId).getBytes()).toString();
			CRC32 keyHash = new CRC32();
			keyHash.update(String.valueOf(match).getBytes());
			outbox.setString(1, eventId);
			outbox.setString(2, String.valueOf(match));
			outbox.setLong(3, keyHash.getValue());
			outbox.setString(4,
					JSON.writeValueAsString(Map.of("event_id", eventId, "event_type", "MESSAGE_SENT", "match_id", match,
							"message_id", messageId, "from_user_id", 2 * match, "to_user_id", 2 * match - 1, "sent_at",
							now.toString())));
			outbox.setBigDecimal(5, at);
			outbox.executeUpdate();
		}
		db.commit();
	}

}
