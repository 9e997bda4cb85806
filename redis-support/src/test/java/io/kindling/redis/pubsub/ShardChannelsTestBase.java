package io.kindling.redis.pubsub;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Shard channels subscribed and left as an instance's rooms come and go, in whichever
 * Redis mode the subclass runs; the failover subclasses go on from here.
 */
abstract class ShardChannelsTestBase {

	/** Enough channels to spread over every primary of a cluster. */
	static final int CHANNELS = 40;

	JedisConnectionFactory connections;

	Heard heard;

	ShardChannels channels;

	abstract JedisConnectionFactory connect();

	/** Publishes on a shard channel, as a script of the service does. */
	abstract void publish(String channel, String message);

	@BeforeEach
	void subscriptions() {
		this.connections = connect();
		this.heard = new Heard();
		this.channels = new ShardChannels(this.connections, this.heard, "test-channels");
	}

	@AfterEach
	void close() {
		this.channels.close();
		this.connections.destroy();
	}

	@Test
	void eachSubscribedChannelHearsItsOwnMessagesInOrderAndALeftOneNoMore() {
		List<String> names = IntStream.range(0, CHANNELS).mapToObj((i) -> "test-channel:{room-" + i + "}").toList();
		names.forEach(this.channels::subscribe);
		names.forEach(this.channels::subscribe);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.channels.subscribed().containsAll(names));
		assertThat(this.heard.subscriptions(names.get(0))).isOne();

		for (int message = 0; message < 3; message++) {
			for (String name : names) {
				publish(name, name + "#" + message);
			}
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> this.heard.total() == 3 * CHANNELS);
		for (String name : names) {
			assertThat(this.heard.of(name)).containsExactly(name + "#0", name + "#1", name + "#2");
		}

		List<String> left = names.subList(0, CHANNELS / 2);
		left.forEach(this.channels::unsubscribe);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.channels.subscribed().stream().noneMatch(left::contains));
		for (String name : names) {
			publish(name, name + "#3");
		}
		String kept = names.get(CHANNELS - 1);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.heard.of(kept).size() == 4);
		for (String name : names) {
			assertThat(this.heard.of(name)).hasSize(left.contains(name) ? 3 : 4);
		}

		// a channel left and taken again is heard again
		this.channels.subscribe(left.get(0));
		await().atMost(Duration.ofSeconds(20)).until(() -> this.channels.subscribed().contains(left.get(0)));
		publish(left.get(0), "back");
		await().atMost(Duration.ofSeconds(20)).until(() -> this.heard.of(left.get(0)).contains("back"));
	}

	/** What the listener was told: each channel's messages and subscriptions. */
	static final class Heard implements ShardChannels.Listener {

		private final Map<String, List<String>> messages = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> subscriptions = new ConcurrentHashMap<>();

		private final AtomicInteger total = new AtomicInteger();

		@Override
		public void message(String channel, String message) {
			this.messages.computeIfAbsent(channel, (key) -> new CopyOnWriteArrayList<>()).add(message);
			this.total.incrementAndGet();
		}

		@Override
		public void subscribed(String channel) {
			this.subscriptions.computeIfAbsent(channel, (key) -> new AtomicInteger()).incrementAndGet();
		}

		List<String> of(String channel) {
			return List.copyOf(this.messages.getOrDefault(channel, List.of()));
		}

		int subscriptions(String channel) {
			AtomicInteger count = this.subscriptions.get(channel);
			return (count != null) ? count.get() : 0;
		}

		int total() {
			return this.total.get();
		}

		Set<String> channels() {
			return this.messages.keySet();
		}

	}

}
