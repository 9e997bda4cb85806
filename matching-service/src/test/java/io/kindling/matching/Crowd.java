package io.kindling.matching;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.kindling.infra.http.Response;
import io.kindling.matching.queue.RedisKeys;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A crowd of clients on two instances: each takes a session, joins a queue on either
 * instance, polls on either, and then maybe leaves and comes back as a new session. Each
 * session joins once, so a token in two conversations can only be a double assignment.
 * Through a failover the clients retry a {@code 503} and start over after a {@code 401}
 * (a session created just before it can be lost with the writes the replica missed).
 */
final class Crowd {

	private final TwoInstances instances;

	private final boolean throughFailover;

	/** Which topics the clients name. */
	private final Mix mix;

	final Map<String, Joined> joined = new ConcurrentHashMap<>();

	final Set<String> left = ConcurrentHashMap.newKeySet();

	final AtomicInteger abandoned = new AtomicInteger();

	final AtomicInteger retried = new AtomicInteger();

	final AtomicInteger lostSessions = new AtomicInteger();

	/**
	 * Sessions a failover lost after they joined (they answer 401): still counted in
	 * their conversations, never asked for their status again.
	 */
	final Set<String> lost = ConcurrentHashMap.newKeySet();

	Crowd(TwoInstances instances, boolean throughFailover) {
		this(instances, throughFailover, Mix.ONE_TOPIC);
	}

	Crowd(TwoInstances instances, boolean throughFailover, Mix mix) {
		this.instances = instances;
		this.throughFailover = throughFailover;
		this.mix = mix;
	}

	/** Which topics the clients name. */
	enum Mix {

		/** Each client one topic (1 to 4). */
		ONE_TOPIC,

		/**
		 * One client in three also names the late-night topic, which nobody joins alone:
		 * a join of two topics, met in either.
		 */
		LATE_NIGHT,

		/**
		 * Half the clients name one topic, the other half 2 to 5 of the five (the
		 * late-night one among the others): joins of one topic and of several meet in
		 * every queue.
		 */
		MIXED

	}

	/** Runs the clients to the end, with {@code meanwhile} on this thread. */
	void run(int clients, Runnable meanwhile) throws Exception {
		assertThat(this.mix != Mix.ONE_TOPIC || queuesLeavingClientsOver(clients) > 0)
			.as("queues whose clients no set of full rooms takes")
			.isTrue();
		List<Throwable> failures = new ArrayList<>();
		CountDownLatch go = new CountDownLatch(1);
		// platform threads: the clients must not share the service's scheduler quirks
		try (ExecutorService executor = Executors.newFixedThreadPool(clients)) {
			for (int i = 0; i < clients; i++) {
				SplittableRandom random = new SplittableRandom(i);
				executor.submit(() -> {
					try {
						go.await();
						client(random);
					}
					catch (Throwable ex) {
						synchronized (failures) {
							failures.add(ex);
						}
					}
					return null;
				});
			}
			go.countDown();
			meanwhile.run();
		}
		assertThat(failures).isEmpty();
	}

	private void client(SplittableRandom random) throws InterruptedException {
		Queue queue = Queue.of(random);
		List<Long> topicIds = topics(queue, random);
		int size = queue.size();
		for (int round = 0; round < 3; round++) {
			Response created = send(() -> pick(random).send("POST", "/api/sessions", null, null));
			assertThat(created.status()).as(created.body()).isEqualTo(201);
			String token = created.field("token");
			Response join = send(() -> (topicIds.size() == 1) ? pick(random).join(token, topicIds.get(0), size)
					: pick(random).send("POST", "/api/matching", token,
							"{\"topic_ids\": " + topicIds + ", \"size\": " + size + "}"));
			if (lostSession(join)) {
				// a try before the 503s may have got it into a room all the same
				this.joined.put(token, new Joined(token, topicIds, size, null));
				this.lost.add(token);
				this.lostSessions.incrementAndGet();
				continue;
			}
			if (this.throughFailover && join.status() == 409) {
				// a join retried through the failover: its first try got as far as the
				// claim, so it is waiting (or its next poll finds the claim orphaned)
				join = new Response(202, join.headers(), join.body());
			}
			assertThat(join.status()).as(join.body()).isIn(200, 202);
			this.joined.put(token, new Joined(token, topicIds, size, null));
			if (join.status() == 200) {
				this.joined.put(token, new Joined(token, topicIds, size, join.field("room_id")));
				return;
			}
			for (int poll = 0; poll < 6; poll++) {
				Thread.sleep(30 + random.nextInt(120));
				Response status = send(() -> pick(random).status(token));
				if (lostSession(status)) {
					this.lost.add(token);
					this.lostSessions.incrementAndGet();
					return;
				}
				assertThat(status.status()).isEqualTo(200);
				if (status.field("status").equals("matched")) {
					this.joined.put(token, new Joined(token, topicIds, size, status.field("room_id")));
					return;
				}
			}
			if (givesUp(round, random)) {
				this.abandoned.incrementAndGet();
				return;
			}
			Response leave = send(() -> pick(random).leave(token));
			if (lostSession(leave)) {
				this.lost.add(token);
				this.lostSessions.incrementAndGet();
				return;
			}
			assertThat(leave.status()).isEqualTo(204);
			this.left.add(token);
		}
	}

	private List<Long> topics(Queue queue, SplittableRandom random) {
		return switch (this.mix) {
			case ONE_TOPIC -> List.of(queue.topicId());
			case LATE_NIGHT ->
				(random.nextInt(3) == 0) ? List.of(queue.topicId(), LATE_NIGHT) : List.of(queue.topicId());
			case MIXED -> random.nextBoolean() ? List.of(queue.topicId()) : severalTopics(queue.topicId(), random);
		};
	}

	/** The queue's topic first, then 1 to 4 of the other four, in a random order. */
	private static List<Long> severalTopics(long first, SplittableRandom random) {
		List<Long> others = new ArrayList<>(TOPICS);
		others.remove(Long.valueOf(first));
		for (int i = others.size() - 1; i > 0; i--) {
			Collections.swap(others, i, random.nextInt(i + 1));
		}
		List<Long> topics = new ArrayList<>();
		topics.add(first);
		topics.addAll(others.subList(0, 1 + random.nextInt(4)));
		return topics;
	}

	/**
	 * What a client does when its polls found no room: on its first try it leaves and
	 * comes back, on its second it leaves or gives up at random, on its third it gives
	 * up, its entry left to the sweepers. Whether polls find a room is timing; what
	 * follows is not, so a queue whose clients no set of full rooms takes (see
	 * {@link #queuesLeavingClientsOver}) ends with a client that left, then gave up (only
	 * a leave meeting a room that formed after the last poll, which then counts as left,
	 * shifts the count).
	 */
	static boolean givesUp(int round, SplittableRandom random) {
		return round == 2 || (round == 1 && random.nextInt(10) < 3);
	}

	/**
	 * How many of the eight queues get, from the clients' seeds, a number of clients that
	 * is not a multiple of the room size: while the clock stands still only full rooms
	 * form, so one client at least is left over in each. The tests that count on leaves
	 * and abandonment check that this is positive.
	 */
	static int queuesLeavingClientsOver(int clients) {
		Map<Queue, Integer> perQueue = new HashMap<>();
		for (int i = 0; i < clients; i++) {
			perQueue.merge(Queue.of(new SplittableRandom(i)), 1, Integer::sum);
		}
		return (int) perQueue.entrySet()
			.stream()
			.filter((queue) -> queue.getValue() % queue.getKey().size() != 0)
			.count();
	}

	private boolean lostSession(Response response) {
		return this.throughFailover && response.status() == 401;
	}

	private Response send(Supplier<Response> request) throws InterruptedException {
		Response response = request.get();
		for (int attempt = 0; this.throughFailover && response.status() == 503 && attempt < 300; attempt++) {
			this.retried.incrementAndGet();
			Thread.sleep(100);
			response = request.get();
		}
		return response;
	}

	private Api pick(SplittableRandom random) {
		return random.nextBoolean() ? this.instances.a : this.instances.b;
	}

	/**
	 * The rest of the rules with nobody polling (the sweepers form the fallback rooms,
	 * then drop whoever is left), then the final state: no token in two conversations,
	 * every room written once with its people, every client idle or in the room it was
	 * told of, and every participant that never left still in its room. A session a
	 * failover lost is held to its conversations only: it can no longer ask.
	 */
	void assertFinalState(int clients) {
		TwoInstances on = this.instances;
		on.clock.advance(Duration.ofSeconds(61));
		await().atMost(Duration.ofSeconds(30)).until(this::noFallbackRoomLeft);
		on.clock.advance(Duration.ofMinutes(5));
		if (this.throughFailover) {
			// a claim whose entry the failover lost (or a join cut between its two steps)
			// waits for its client's next poll to be set idle
			this.joined.keySet().forEach(on.a::status);
		}
		await().atMost(Duration.ofSeconds(30))
			.until(() -> noWaitingClaimLeft() && on.redis.opsForZSet().size(RedisKeys.ACTIVE_QUEUES) == 0);
		assertThat(on.redis.keys("matching:queue:*")).isEmpty();

		CrowdRooms rooms = CrowdRooms.read(on.jdbc, this.joined.values());
		assertThat(rooms.conversations.size()).as("rooms formed").isGreaterThan(clients / 4);
		rooms.assertSizesAndTopics();
		int matched = 0;
		for (Joined client : this.joined.values()) {
			if (this.lost.contains(client.token())) {
				continue;
			}
			Response status = ((client.token().hashCode() & 1) == 0 ? on.a : on.b).status(client.token());
			if (lostSession(status)) {
				// told matched when it joined, then its session went with the failover
				this.lost.add(client.token());
				continue;
			}
			assertThat(status.field("status")).isIn("idle", "matched");
			if (status.field("status").equals("matched")) {
				matched++;
				assertThat(rooms.of(client)).isNotNull();
				assertThat(status.field("room_id")).isEqualTo(rooms.of(client).roomId());
			}
			else if (rooms.of(client) != null) {
				assertThat(this.left).as("a participant idle without leaving its room").contains(client.token());
			}
		}
		assertThat(matched).as("clients in a room at the end")
			.isEqualTo(this.joined.values()
				.stream()
				.filter((client) -> rooms.of(client) != null)
				.filter((client) -> !this.left.contains(client.token()))
				.filter((client) -> !this.lost.contains(client.token()))
				.count());
		if (this.mix == Mix.ONE_TOPIC) {
			// a queue left over (see queuesLeavingClientsOver) makes both happen
			assertThat(this.left).isNotEmpty();
			assertThat(this.abandoned.get()).isPositive();
		}
	}

	private boolean noWaitingClaimLeft() {
		return this.instances.redis.keys("matching:claim:*")
			.stream()
			.noneMatch((claim) -> this.instances.redis.opsForHash().hasKey(claim, "join"));
	}

	private boolean noFallbackRoomLeft() {
		for (long topic : TOPICS) {
			Long waiting = this.instances.redis.opsForZSet().size(RedisKeys.queue(topic, 3));
			if (waiting != null && waiting >= 2) {
				return false;
			}
		}
		return true;
	}

	static final long LATE_NIGHT = 42;

	/** The active topics: those of the queues, and the late-night one. */
	static final List<Long> TOPICS = List.of(1L, 2L, 3L, 4L, LATE_NIGHT);

	/** The queue a client joins on every try: its seed's first two draws. */
	record Queue(long topicId, int size) {

		static Queue of(SplittableRandom random) {
			return new Queue(1 + random.nextInt(4), 2 + random.nextInt(2));
		}

	}

	record Joined(String token, List<Long> topicIds, int size, @Nullable String matchedRoomId) {

	}

}
