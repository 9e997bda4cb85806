package io.kindling.matching.chat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.kindling.matching.chat.ChatStore.Published;
import io.kindling.matching.chat.ChatStore.Sent;
import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.RealServersExtension;
import io.kindling.redis.StreamEntryId;
import io.kindling.redis.pubsub.ShardChannels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A room's conversation in Redis: entries appended in one order and published with the id
 * before each, a member who left refused, a resent client message id appended once, the
 * rate, reads from the stream, expiry, and every key and the channel in the room's slot.
 */
@RealServers(Server.REDIS)
class ChatStoreIT {

	static JedisConnectionFactory connections;

	static ChatStore store;

	static ShardChannels channels;

	static final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

	static final BlockingQueue<String> subscribed = new LinkedBlockingQueue<>();

	static long nextRoom = System.nanoTime() % 1_000_000_000L;

	final Instant now = Instant.parse("2026-12-05T10:00:00Z");

	final Instant expireAt = Instant.now().plus(Duration.ofMinutes(20));

	@BeforeAll
	static void connect() {
		connections = new JedisConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", RealServersExtension.redis().port()));
		connections.afterPropertiesSet();
		connections.start();
		store = new ChatStore(new StringRedisTemplate(connections), JsonMapper.builder().build(),
				new ChatProperties(5, 5, 10, Duration.ofMinutes(10)));
		channels = new ShardChannels(connections, new ShardChannels.Listener() {
			@Override
			public void message(String channel, String message) {
				heard.add(message);
			}

			@Override
			public void subscribed(String channel) {
				subscribed.add(channel);
			}
		}, "test-chat");
	}

	@AfterAll
	static void disconnect() {
		channels.close();
		connections.destroy();
	}

	@Test
	void entriesAreAppendedInOneOrderAndPublishedEachWithTheOneBefore() throws Exception {
		long room = nextRoom++;
		channels.subscribe(ChatStore.channel(room));
		assertThat(subscribed.poll(10, TimeUnit.SECONDS)).isEqualTo(ChatStore.channel(room));
		store.seat(room, "A", this.now, this.expireAt);
		store.seat(room, "B", this.now, this.expireAt);
		assertThat(store.present(room)).containsExactly("A", "B");

		StreamEntryId first = appended(store.send(room, "A", "hello", "a1", this.now, this.expireAt));
		StreamEntryId second = appended(store.send(room, "B", "hi \"A\"\n\uD83D\uDD25", "b1", this.now, this.expireAt));
		StreamEntryId joined = store.join(room, "C", this.now, this.expireAt).orElseThrow();
		assertThat(store.join(room, "C", this.now, this.expireAt)).as("in already").isEmpty();
		StreamEntryId left = store.leave(room, "B", this.now, this.expireAt).orElseThrow();
		assertThat(store.leave(room, "B", this.now, this.expireAt)).as("left already").isEmpty();
		assertThat(List.of(first, second, joined, left)).isSorted();

		List<Published> published = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			published.add(store.published(heard.poll(10, TimeUnit.SECONDS)));
		}
		assertThat(published).extracting(Published::previous)
			.containsExactly(StreamEntryId.NONE, first, second, joined);
		assertThat(published.get(1).entry())
			.isEqualTo(new ChatEntry(second, ChatEntry.Kind.MESSAGE, "B", "hi \"A\"\n\uD83D\uDD25", "b1", this.now));
		assertThat(published.get(3).entry().kind()).isEqualTo(ChatEntry.Kind.LEFT);
		assertThat(store.last(room, 10)).extracting(ChatEntry::id).containsExactly(first, second, joined, left);
		assertThat(store.last(room, 2)).extracting(ChatEntry::id).containsExactly(joined, left);
		assertThat(store.after(room, first, 10)).extracting(ChatEntry::id).containsExactly(second, joined, left);
		assertThat(store.after(room, left, 10)).isEmpty();
		assertThat(store.lastId(room)).isEqualTo(left);
		assertThat(store.present(room)).containsExactly("A", "C");
		channels.unsubscribe(ChatStore.channel(room));
	}

	@Test
	void aMemberWhoLeftSendsNothingAndIsNotSeatedAgain() {
		long room = nextRoom++;
		store.seat(room, "A", this.now, this.expireAt);
		store.leave(room, "A", this.now, this.expireAt);
		store.seat(room, "A", this.now, this.expireAt);
		assertThat(store.send(room, "A", "still here?", "a1", this.now, this.expireAt))
			.isInstanceOf(Sent.NotMember.class);
		assertThat(store.send(room, "Z", "never seated", "z1", this.now, this.expireAt))
			.isInstanceOf(Sent.NotMember.class);
		assertThat(store.last(room, 10)).extracting(ChatEntry::kind).containsExactly(ChatEntry.Kind.LEFT);
	}

	@Test
	void aResentClientMessageIdIsAppendedOnce() {
		long room = nextRoom++;
		store.seat(room, "A", this.now, this.expireAt);
		store.seat(room, "B", this.now, this.expireAt);
		StreamEntryId id = appended(store.send(room, "A", "once", "same", this.now, this.expireAt));
		assertThat(store.send(room, "A", "once", "same", this.now, this.expireAt)).isEqualTo(new Sent.Duplicate(id));
		// another member's id of the same text is theirs
		appended(store.send(room, "B", "once", "same", this.now, this.expireAt));
		assertThat(store.last(room, 10)).hasSize(2);
	}

	@Test
	void aMemberPastTheRateSendsNothingUntilATokenIsBack() {
		long room = nextRoom++;
		store.seat(room, "A", this.now, this.expireAt);
		store.seat(room, "B", this.now, this.expireAt);
		for (int i = 0; i < 10; i++) {
			appended(store.send(room, "A", "burst " + i, "a" + i, this.now, this.expireAt));
		}
		Sent refused = store.send(room, "A", "one too many", "a10", this.now, this.expireAt);
		assertThat(refused).isEqualTo(new Sent.RateLimited(Duration.ofMillis(200)));
		// the other member's bucket is their own
		appended(store.send(room, "B", "me too", "b1", this.now, this.expireAt));
		appended(store.send(room, "A", "later", "a10", this.now.plusMillis(200), this.expireAt));
		assertThat(store.last(room, 100)).hasSize(12);
	}

	@Test
	void theStreamKeepsAboutTheHistoryAndEveryKeyExpiresWithTheRoom() {
		long room = nextRoom++;
		store.seat(room, "A", this.now, this.expireAt);
		for (int i = 0; i < 300; i++) {
			appended(store.send(room, "A", "m" + i, "m" + i, this.now.plusSeconds(i), this.expireAt));
		}
		StringRedisTemplate redis = new StringRedisTemplate(connections);
		// trimmed near 5 (whole radix-tree nodes go, so a few more stay), never below
		assertThat(redis.opsForStream().size(ChatStore.stream(room))).isBetween(5L, 200L);
		for (String key : List.of(ChatStore.stream(room), ChatStore.members(room), ChatStore.sent(room))) {
			assertThat(redis.getExpire(key, TimeUnit.SECONDS)).as(key).isBetween(19 * 60L, 20 * 60L);
		}
	}

	@Test
	void aRoomsKeysAndChannelHashToOneSlot() {
		long room = 7_654_321;
		int slot = JedisClusterCRC16.getSlot(ChatStore.stream(room));
		for (String key : List.of(ChatStore.members(room), ChatStore.sent(room), ChatStore.rate(room, "C"),
				ChatStore.channel(room))) {
			assertThat(JedisClusterCRC16.getSlot(key)).as(key).isEqualTo(slot);
		}
		assertThat(JedisClusterCRC16.getSlot(ChatStore.stream(room + 1))).isNotEqualTo(slot);
	}

	private static StreamEntryId appended(Sent sent) {
		assertThat(sent).isInstanceOf(Sent.Appended.class);
		return ((Sent.Appended) sent).id();
	}

}
