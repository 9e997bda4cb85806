package io.kindling.infra.test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.servers.MariaDbServer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.JedisPooled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness is real: Lua runs on Redis, SKIP LOCKED on MariaDB, records go through
 * Kafka.
 */
@RealServers(database = "kindling_harness")
class RealServersTests {

	@Test
	void aLuaScriptRunsOnTheRealRedis() {
		try (JedisPooled redis = new JedisPooled("127.0.0.1", RealServersExtension.redis().port())) {
			redis.zadd("queue", Map.of("a", 1.0, "b", 2.0, "c", 3.0));
			Object popped = redis.eval("""
					local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
					return #popped / 2
					""", List.of("queue"), List.of("2"));
			assertThat(popped).isEqualTo(2L);
			assertThat(redis.zcard("queue")).isEqualTo(1L);
		}
	}

	/**
	 * Reads the queue's head, then removes it: two steps that another client may come
	 * between, unless they run as one script.
	 */
	private static final String TAKE_HEAD = """
			local head = redis.call('ZRANGE', KEYS[1], 0, 1)
			for _, member in ipairs(head) do
				redis.call('ZREM', KEYS[1], member)
			end
			return head
			""";

	private static final int CLIENTS = 16;

	private static final int ROUNDS = 50;

	@Test
	void aLuaScriptRunsAtomicallyOnTheRealRedis() throws Exception {
		try (JedisPooled redis = new JedisPooled("127.0.0.1", RealServersExtension.redis().port())) {
			fill(redis, "atomic", CLIENTS * ROUNDS * 2);

			Map<String, Integer> taken = race((client) -> {
				@SuppressWarnings("unchecked")
				List<String> head = (List<String>) redis.eval(TAKE_HEAD, List.of("atomic"), List.of());
				return head;
			});

			assertThat(taken).hasSize(CLIENTS * ROUNDS * 2);
			assertThat(taken.values()).containsOnly(1);
			assertThat(redis.zcard("atomic")).isZero();
		}
	}

	@Test
	void theScriptsStepsSentOneByOneTakeAMemberTwice() throws Exception {
		try (JedisPooled redis = new JedisPooled("127.0.0.1", RealServersExtension.redis().port())) {
			fill(redis, "steps", CLIENTS * ROUNDS * 2);
			// every client reads the head before any removes it: what the script's
			// atomicity rules out
			CyclicBarrier allHaveRead = new CyclicBarrier(CLIENTS);

			Map<String, Integer> taken = race((client) -> {
				List<String> head = redis.zrange("steps", 0, 1);
				allHaveRead.await(30, TimeUnit.SECONDS);
				head.forEach((member) -> redis.zrem("steps", member));
				return head;
			});

			// each round's two head members went to all sixteen clients
			assertThat(taken).hasSize(ROUNDS * 2);
			assertThat(taken.values()).containsOnly(CLIENTS);
		}
	}

	private static void fill(JedisPooled redis, String queue, int members) {
		redis.del(queue);
		Map<String, Double> scores = new HashMap<>();
		for (int i = 0; i < members; i++) {
			scores.put("m" + i, (double) i);
		}
		redis.zadd(queue, scores);
	}

	interface Take {

		List<String> from(int client) throws Exception;

	}

	/**
	 * {@link #CLIENTS} threads take from the queue {@link #ROUNDS} times each, all
	 * starting each round together; how many times each member was taken.
	 */
	private static Map<String, Integer> race(Take take) throws Exception {
		CyclicBarrier roundStarts = new CyclicBarrier(CLIENTS);
		Map<String, Integer> taken = new ConcurrentHashMap<>();
		try (ExecutorService clients = Executors.newFixedThreadPool(CLIENTS)) {
			List<Future<?>> running = new ArrayList<>();
			for (int client = 0; client < CLIENTS; client++) {
				int id = client;
				running.add(clients.submit(() -> {
					for (int round = 0; round < ROUNDS; round++) {
						roundStarts.await(30, TimeUnit.SECONDS);
						take.from(id).forEach((member) -> taken.merge(member, 1, Integer::sum));
					}
					return null;
				}));
			}
			for (Future<?> client : running) {
				client.get(60, TimeUnit.SECONDS);
			}
		}
		return taken;
	}

	@Test
	void forUpdateSkipLockedSkipsRowsAnotherTransactionHolds() throws Exception {
		String url = RealServersExtension.mariaDb().jdbcUrl("kindling_harness");
		try (Connection setup = connect(url); Statement statement = setup.createStatement()) {
			statement.execute("CREATE TABLE IF NOT EXISTS jobs (id BIGINT PRIMARY KEY) ENGINE=InnoDB");
			statement.execute("DELETE FROM jobs");
			statement.execute("INSERT INTO jobs VALUES (1), (2), (3), (4)");
		}
		try (Connection first = connect(url); Connection second = connect(url)) {
			first.setAutoCommit(false);
			second.setAutoCommit(false);
			List<Long> firstClaim = claim(first, 2);
			List<Long> secondClaim = claim(second, 10);
			assertThat(firstClaim).containsExactly(1L, 2L);
			assertThat(secondClaim).containsExactly(3L, 4L);
			first.rollback();
			second.rollback();
		}
	}

	@Test
	void aRecordRoundTripsThroughTheRealKafkaBroker() throws Exception {
		String bootstrap = RealServersExtension.kafka().bootstrapServers();
		try (KafkaProducer<String, String> producer = new KafkaProducer<>(
				Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ACKS_CONFIG, "all",
						ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
						ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
				KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
						Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG,
								"harness", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
								ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
								ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
			producer.send(new ProducerRecord<>("harness.roundtrip", "12:34", "hello")).get(30, TimeUnit.SECONDS);
			consumer.subscribe(List.of("harness.roundtrip"));
			CompletableFuture<ConsumerRecord<String, String>> first = new CompletableFuture<>();
			long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (!first.isDone() && System.nanoTime() < deadline) {
				consumer.poll(Duration.ofMillis(200)).forEach((record) -> {
					first.complete(record);
				});
			}
			assertThat(first).isDone();
			assertThat(first.get().key()).isEqualTo("12:34");
			assertThat(first.get().value()).isEqualTo("hello");
		}
	}

	private static Connection connect(String url) throws SQLException {
		return DriverManager.getConnection(url, MariaDbServer.USER, MariaDbServer.PASSWORD);
	}

	private static List<Long> claim(Connection connection, int batch) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rows = statement
					.executeQuery("SELECT id FROM jobs ORDER BY id LIMIT " + batch + " FOR UPDATE SKIP LOCKED")) {
			List<Long> ids = new java.util.ArrayList<>();
			while (rows.next()) {
				ids.add(rows.getLong(1));
			}
			return ids;
		}
	}

}
