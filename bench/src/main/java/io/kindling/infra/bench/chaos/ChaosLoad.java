package io.kindling.infra.bench.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.ClusterStack;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jspecify.annotations.Nullable;

/**
 * The mixed load through the balancer: swipers liking each other in new pairs, joiners
 * forming rooms of two from many client addresses, and a consumer of the match events;
 * what each was served, and when.
 */
final class ChaosLoad {

	/** What a client keeps retrying one call for before it gives up on it. */
	private static final Duration PATIENCE = Duration.ofSeconds(120);

	private final ClusterStack stack;

	private final String kafka;

	private final ServiceClient matching;

	private final ServiceClient swipes;

	private final List<String> addresses;

	private final Checks checks;

	final Timeline swipesServed = new Timeline();

	final Timeline joinsServed = new Timeline();

	final Timeline eventsSeen = new Timeline();

	/** The pairs whose two likes were both acknowledged. */
	final Queue<long[]> acknowledgedPairs = new ConcurrentLinkedQueue<>();

	private final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();

	private final AtomicLong nextUser = new AtomicLong(
			1_000_000 + ThreadLocalRandom.current().nextLong(1_000_000_000L));

	final AtomicInteger sessions = new AtomicInteger();

	/** The keys of every MATCH_CREATED read from kindling.matches. */
	final Set<String> matchesOnKafka = ConcurrentHashMap.newKeySet();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<Future<?>> workers = new ArrayList<>();

	private @Nullable Thread consumer;

	private volatile boolean loading = true;

	ChaosLoad(ClusterStack stack, Endpoints endpoints, int addressCount, Checks checks) {
		this.stack = stack;
		this.kafka = endpoints.kafka();
		this.matching = new ServiceClient(stack.ports().matching(), Duration.ofSeconds(30));
		this.swipes = new ServiceClient(stack.ports().swipe(), Duration.ofSeconds(30));
		this.addresses = new ArrayList<>();
		for (int i = 0; i < addressCount; i++) {
			this.addresses.add("127.1." + (i / 250) + "." + (1 + i % 250));
		}
		this.checks = checks;
	}

	int addresses() {
		return this.addresses.size();
	}

	/** Starts the swipers, the joiners and the consumer of kindling.matches. */
	void start(int swipers, int joiners) {
		for (int i = 0; i < swipers; i++) {
			this.workers.add(this.threads.submit(this::swipeLoop));
		}
		for (int i = 0; i < joiners; i++) {
			int first = i;
			this.workers.add(this.threads.submit(() -> joinLoop(first, joiners)));
		}
		this.consumer = Thread.ofPlatform().name("chaos-matches").daemon().start(this::consumeMatches);
	}

	/** Stops the swipers and the joiners once their calls in flight are over. */
	void stop() throws Exception {
		this.loading = false;
		for (Future<?> worker : this.workers) {
			worker.get(3, TimeUnit.MINUTES);
		}
		this.threads.shutdown();
	}

	/** Asks the workers to stop, without waiting for them. */
	void abandon() {
		this.loading = false;
	}

	void stopConsuming() {
		if (this.consumer != null) {
			this.consumer.interrupt();
		}
	}

	/** Each answer ("swipe 200", "join I/O error"...) and how often it came. */
	Map<String, AtomicInteger> answers() {
		return new TreeMap<>(this.answers);
	}

	/** New pairs, one after another: both profiles, then both likes at once. */
	private void swipeLoop() {
		ExecutorService other = Executors.newSingleThreadExecutor();
		try {
			while (this.loading) {
				long a = this.nextUser.getAndAdd(2);
				long b = a + 1;
				if (!answered(() -> profile(a, "WOMAN", "MAN")) || !answered(() -> profile(b, "MAN", "WOMAN"))) {
					continue;
				}
				Future<Boolean> aLikes = other.submit(() -> answered(() -> like(a, b)));
				boolean bLiked = answered(() -> like(b, a));
				if (aLikes.get() && bLiked) {
					this.acknowledgedPairs.add(new long[] { a, b });
				}
			}
		}
		catch (Exception ex) {
			this.checks.fail("a swiper stopped: " + ex);
		}
		finally {
			other.shutdownNow();
		}
	}

	/** New sessions from the addresses in turn, each joining a room of two. */
	private void joinLoop(int first, int step) {
		int next = first;
		while (this.loading) {
			ServiceClient client = this.matching.from(this.addresses.get(next % this.addresses.size()));
			next += step;
			Response session = untilAnswered(() -> client.send(Request.of("POST", "/api/sessions").body(new byte[0])),
					"session");
			if (session == null || session.status() != 201) {
				continue;
			}
			String token = session.field("token");
			this.sessions.incrementAndGet();
			String join = "{\"topic_id\":" + (1 + next % 4) + ",\"size\":2}";
			Response joined = untilAnswered(
					() -> client.send(Request.of("POST", "/api/matching").bearer(token).json(join)), "join");
			// 409: a retried join that had gone through
			if (joined != null && (joined.status() == 200 || joined.status() == 202 || joined.status() == 409)) {
				this.joinsServed.add(System.nanoTime());
			}
		}
	}

	private Response profile(long user, String gender, String interestedIn) {
		String body = """
				{"display_name":"Chaos %d","gender":"%s","interested_in":["%s"],"birth_date":"1990-01-01",
				 "location":{"lat":52.52,"lon":13.40},"age_min":18,"age_max":99,"max_distance_km":100}"""
			.formatted(user, gender, interestedIn);
		return this.swipes.send("PUT", "/api/profile", token(user), body);
	}

	private Response like(long user, long target) {
		return this.swipes.send(Request.of("POST", "/api/swipes")
			.bearer(token(user))
			.header("Idempotency-Key", "chaos-" + user + "-" + target)
			.json("{\"target_user_id\":" + target + ",\"action\":\"LIKE\"}"));
	}

	/**
	 * Whether the call (retried on 503) was answered 200; a like answered so is a swipe
	 * served.
	 */
	private boolean answered(Supplier<Response> call) {
		Response response = untilAnswered(call, "swipe");
		boolean ok = response != null && response.status() == 200;
		if (ok && response.body().contains("\"swipe_id\"")) {
			this.swipesServed.add(System.nanoTime());
		}
		return ok;
	}

	/**
	 * As a client honouring Retry-After: a 503 or a connection the balancer cut is sent
	 * again; null when it never got another answer.
	 */
	private @Nullable Response untilAnswered(Supplier<Response> call, String what) {
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (System.nanoTime() < deadline) {
			Response response;
			try {
				response = call.get();
			}
			catch (RuntimeException ex) {
				count(what + " I/O error");
				BenchHost.sleep(Duration.ofMillis(200));
				continue;
			}
			count(what + " " + response.status());
			if (response.status() != 503) {
				return response;
			}
			BenchHost.sleep(Duration.ofSeconds(Long.parseLong(response.header("Retry-After").orElse("1"))));
		}
		return null;
	}

	private void count(String answer) {
		this.answers.computeIfAbsent(answer, (key) -> new AtomicInteger()).incrementAndGet();
	}

	private String token(long user) {
		return Hs256.token(this.stack.jwtSecret(), user);
	}

	private void consumeMatches() {
		Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, this.kafka,
				ConsumerConfig.GROUP_ID_CONFIG, "chaos-" + System.nanoTime(), ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
				"earliest", ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
				ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
			consumer.subscribe(List.of("kindling.matches"));
			while (!Thread.currentThread().isInterrupted()) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					Header type = record.headers().lastHeader("event_type");
					if (type != null && new String(type.value(), StandardCharsets.UTF_8).equals("MATCH_CREATED")
							&& this.matchesOnKafka.add(record.key())) {
						this.eventsSeen.add(System.nanoTime());
					}
				}
			}
		}
		catch (org.apache.kafka.common.errors.InterruptException ex) {
			// stopped
		}
	}

}
