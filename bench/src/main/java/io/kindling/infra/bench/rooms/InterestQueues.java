package io.kindling.infra.bench.rooms;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;

/**
 * People who each named 2 to 5 of {@value #TOPICS} topics, waiting for a room of two,
 * each with the same entry in the queue of every topic they named; a room is formed by a
 * join that names 2 to 5 of them too, with the Redis calls the service makes for it, one
 * after the other: a read of the head of each of its queues, the join script (its entry
 * in, then {@code form_room.lua}) in the queue whose oldest waited longest, and the
 * removal of each popped entry from its other queues. The queues are deep, so the room is
 * that queue's two oldest, as in the other shapes; the joiner's entry is taken out again
 * untimed (the service would go on to its next queue), with two new people in for the two
 * popped.
 */
final class InterestQueues extends FormingCosts.Shape {

	static final int TOPICS = 8;

	/** The joiners' address, in their join ids as the service writes it. */
	private static final String ADDRESS = Base64.getUrlEncoder()
		.withoutPadding()
		.encodeToString("127.0.0.1".getBytes(StandardCharsets.UTF_8));

	private final String prefix;

	/** The joiner's entry and the queue it went into, taken out again by refill(). */
	private String joined = "";

	private long joinedTopic;

	InterestQueues(UnifiedJedis jedis, FormingCosts.Scripts scripts, int depth) {
		super(jedis, scripts, depth);
		this.prefix = "bench:" + depth + ":topics:";
	}

	@Override
	String label() {
		return String.format("a join of 2–5 topics, %,d waiting with 2–5 of %d each", this.depth, TOPICS);
	}

	@Override
	String family() {
		return "several topics";
	}

	@Override
	void form() {
		List<Long> topics = someTopics();
		// oldest first: the queue whose head waited longest, queues nobody waits in last
		Map<Long, Double> heads = new HashMap<>();
		for (long topic : topics) {
			List<Tuple> head = this.jedis.zrangeWithScores(queue(topic), 0, 0);
			heads.put(topic, head.isEmpty() ? Double.MAX_VALUE : head.get(0).getScore());
		}
		long first = topics.stream().min(Comparator.comparing(heads::get)).orElseThrow();
		long now = System.currentTimeMillis();
		String member = member(Long.toHexString(ThreadLocalRandom.current().nextLong()), now, topics);
		List<String> args = new ArrayList<>(FormingCosts.formArgs(now, member));
		// the joiner's recent partners: none
		args.add("");
		Object result = this.jedis.evalsha(this.scripts.join(), List.of(queue(first), this.prefix + "popped:" + first,
				partners(first), this.prefix + "queue-stats:" + first), args);
		if (!FormingCosts.formedRoom(result)) {
			throw new IllegalStateException("the join formed no room at depth " + this.depth + ": " + result);
		}
		this.joined = member;
		this.joinedTopic = first;
		List<?> answer = (List<?>) result;
		int poppedFrom = 5 + 2 * Integer.parseInt(String.valueOf(answer.get(4)));
		for (int i = poppedFrom; i + 2 < answer.size(); i += 3) {
			String popped = String.valueOf(answer.get(i));
			for (long topic : topicsOf(popped)) {
				if (topic != first) {
					remove(topic, popped);
				}
			}
		}
	}

	@Override
	void refill() {
		remove(this.joinedTopic, this.joined);
		super.refill();
	}

	private void remove(long topic, String member) {
		this.jedis.evalsha(this.scripts.removeEntry(), List.of(queue(topic), partners(topic)), List.of(member));
	}

	/** One person waiting: the same entry, with the same score, in each of its queues. */
	@Override
	void add(AbstractPipeline pipeline, long score) {
		List<Long> topics = someTopics();
		String member = member(Long.toHexString(ThreadLocalRandom.current().nextLong()) + score, score, topics);
		for (long topic : topics) {
			pipeline.zadd(queue(topic), score, member);
		}
	}

	/** 2 to 5 different topics, in a random order. */
	private static List<Long> someTopics() {
		List<Long> all = new ArrayList<>();
		for (long topic = 1; topic <= TOPICS; topic++) {
			all.add(topic);
		}
		Collections.shuffle(all, ThreadLocalRandom.current());
		return all.subList(0, 2 + ThreadLocalRandom.current().nextInt(4));
	}

	/**
	 * As the service writes a join of several topics:
	 * {@code <token>:<random>.<address>.<t1>-<t2>-...}.
	 */
	private static String member(String token, long random, List<Long> topics) {
		return token + ":" + Long.toHexString(random) + "." + ADDRESS + "."
				+ topics.stream().map(String::valueOf).collect(Collectors.joining("-"));
	}

	/** The topics a member's join id names, as the service reads them back. */
	private static List<Long> topicsOf(String member) {
		String joinId = member.substring(member.lastIndexOf(':') + 1);
		String[] parts = joinId.split("\\.");
		return List.of(parts[2].split("-")).stream().map(Long::valueOf).toList();
	}

	private String queue(long topic) {
		return this.prefix + "queue:" + topic + ":2";
	}

	private String partners(long topic) {
		return this.prefix + "entry-partners:" + topic;
	}

}
