package io.kindling.redis.pubsub;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisShardedPubSub;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.util.SafeEncoder;

import org.springframework.data.redis.connection.RedisSentinelConnection;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;

/**
 * An instance's subscriptions to shard channels ({@code SSUBSCRIBE}), one connection per
 * node that serves one of them: on one Redis or behind Sentinels the primary, on a
 * cluster each primary serving a subscribed channel's slot. Channels come and go while
 * the connections stay.
 *
 * <p>
 * A node's connection that fails (the node died, a failover moved its slots) gives its
 * channels back, and each is subscribed again wherever the cluster now serves its slot,
 * after a back-off; a channel the node itself unsubscribes (its slot migrated) is
 * subscribed again the same way. Pub/sub keeps nothing for a subscriber that is away, so
 * the listener is told each time a channel is subscribed, the first time included, and
 * reads from what Redis stores whatever it may have missed.
 */
public final class ShardChannels implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(ShardChannels.class);

	private static final Duration FIRST_RETRY = Duration.ofMillis(100);

	private static final Duration LAST_RETRY = Duration.ofSeconds(2);

	private final JedisConnectionFactory connections;

	private final Listener listener;

	private final String name;

	/** The channels wanted, each with the shard it is subscribed through. */
	private final Map<String, Shard> channels = new HashMap<>();

	/** The running shards, by the node they hold a connection to. */
	private final Map<String, Shard> shards = new HashMap<>();

	/** Nodes whose connection failed lately, with how many times in a row. */
	private final Map<String, Integer> failures = new ConcurrentHashMap<>();

	private boolean closed;

	/**
	 * @param name the subscription threads' name prefix
	 */
	public ShardChannels(JedisConnectionFactory connections, Listener listener, String name) {
		this.connections = connections;
		this.listener = listener;
		this.name = name;
	}

	/**
	 * Hears the channel's messages from now on; subscribing twice is subscribing once.
	 */
	public synchronized void subscribe(String channel) {
		if (this.closed || this.channels.containsKey(channel)) {
			return;
		}
		String node = nodeFor(channel);
		Shard shard = this.shards.computeIfAbsent(node, (key) -> new Shard(key));
		this.channels.put(channel, shard);
		shard.add(channel);
	}

	/** Stops hearing the channel. */
	public synchronized void unsubscribe(String channel) {
		Shard shard = this.channels.remove(channel);
		if (shard != null) {
			shard.remove(channel);
		}
	}

	/** The channels subscribed now, each confirmed by its node. */
	public synchronized Set<String> subscribed() {
		Set<String> confirmed = new HashSet<>();
		this.shards.values().forEach((shard) -> confirmed.addAll(shard.confirmed));
		return confirmed;
	}

	@Override
	public void close() {
		List<Shard> running;
		synchronized (this) {
			this.closed = true;
			running = List.copyOf(this.shards.values());
			this.shards.clear();
			this.channels.clear();
		}
		running.forEach(Shard::stop);
	}

	/**
	 * The node that serves the channel's slot, {@code host:port}: a cluster's primary for
	 * that slot, the primary the Sentinels name, or the one Redis.
	 */
	private String nodeFor(String channel) {
		if (this.connections.isRedisSentinelAware()) {
			String master = this.connections.getSentinelConfiguration().getMaster().getName();
			try (RedisSentinelConnection sentinels = this.connections.getSentinelConnection()) {
				return sentinels.masters()
					.stream()
					.filter((server) -> master.equals(server.getName()))
					.map((server) -> server.getHost() + ":" + server.getPort())
					.findFirst()
					.orElseThrow(() -> new IllegalStateException("the Sentinels name no primary " + master));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		if (!this.connections.isRedisClusterAware()) {
			return this.connections.getHostName() + ":" + this.connections.getPort();
		}
		int slot = JedisClusterCRC16.getSlot(channel);
		JedisCluster cluster = (JedisCluster) this.connections.getClusterConnection().getNativeConnection();
		RuntimeException last = null;
		// asked of each node the client knows until one answers: right after a node died
		// it is among them
		for (ConnectionPool node : cluster.getClusterNodes().values()) {
			try (Connection connection = node.getResource()) {
				for (Object range : new Jedis(connection).clusterSlots()) {
					List<?> served = (List<?>) range;
					if (slot >= (Long) served.get(0) && slot <= (Long) served.get(1)) {
						List<?> primary = (List<?>) served.get(2);
						return SafeEncoder.encode((byte[]) primary.get(0)) + ":" + primary.get(1);
					}
				}
				throw new IllegalStateException("no node serves slot " + slot + " yet");
			}
			catch (RuntimeException ex) {
				last = ex;
			}
		}
		throw (last != null) ? last : new IllegalStateException("no cluster node known");
	}

	/**
	 * A shard's connection failed (or its subscription ended while a channel was still
	 * wanted): every channel it holds is subscribed again wherever its slot is served
	 * now, trying until the cluster can say where (right after a node died it may not
	 * yet).
	 */
	private void rehome(Shard shard) {
		retried(() -> moveAway(shard, null));
	}

	/**
	 * The node took this channel away (its slot moved): it is subscribed where it went.
	 */
	private void rehome(Shard shard, String channel) {
		retried(() -> moveAway(shard, channel));
	}

	private void retried(Runnable move) {
		for (int attempt = 1;; attempt++) {
			try {
				move.run();
				return;
			}
			catch (RuntimeException ex) {
				synchronized (this) {
					if (this.closed) {
						return;
					}
				}
				log.warn("Could not find where to subscribe channels again (try {}): {}", attempt, ex.toString());
				sleep(backoff(attempt));
			}
		}
	}

	/**
	 * Moves the shard's channels (or the one) to the shards of the nodes now serving
	 * them. Under this object's lock, as every change of {@link #channels} is: a channel
	 * given to the shard while its connection was failing is among those moved.
	 */
	private synchronized void moveAway(Shard shard, @Nullable String only) {
		if (only == null && this.shards.get(shard.node) == shard) {
			this.shards.remove(shard.node);
		}
		List<String> held = this.channels.entrySet()
			.stream()
			.filter((entry) -> entry.getValue() == shard && (only == null || entry.getKey().equals(only)))
			.map(Map.Entry::getKey)
			.toList();
		for (String channel : held) {
			String node = nodeFor(channel);
			shard.wanted.remove(channel);
			Shard moved = this.shards.computeIfAbsent(node, (key) -> new Shard(key));
			this.channels.put(channel, moved);
			moved.add(channel);
		}
	}

	/**
	 * The shard's subscription ended with nothing left to hear; a channel that came as
	 * the last one went is heard on a new connection.
	 */
	private void ended(Shard shard) {
		synchronized (this) {
			if (shard.wanted.isEmpty()) {
				if (this.shards.get(shard.node) == shard) {
					this.shards.remove(shard.node);
				}
				return;
			}
		}
		rehome(shard);
	}

	/** Told of each message and of each (re)subscription. */
	public interface Listener {

		/**
		 * A message published on a channel subscribed here, in the order its node sent
		 * them.
		 */
		void message(String channel, String message);

		/**
		 * The channel is subscribed, the first time or again after its node went away:
		 * what was published on it before now may not have been heard.
		 */
		void subscribed(String channel);

	}

	/** The connection to one node and the channels heard through it. */
	private final class Shard {

		private final String node;

		/** Channels this shard should hear. */
		private final Set<String> wanted = ConcurrentHashMap.newKeySet();

		/** Channels an SSUBSCRIBE was sent for on the current connection. */
		private final Set<String> requested = ConcurrentHashMap.newKeySet();

		/** Channels the node confirmed. */
		private final Set<String> confirmed = ConcurrentHashMap.newKeySet();

		private volatile @Nullable Subscription current;

		private volatile boolean stopped;

		private @Nullable Thread thread;

		Shard(String node) {
			this.node = node;
		}

		synchronized void add(String channel) {
			this.wanted.add(channel);
			if (this.thread == null) {
				this.thread = Thread.ofPlatform()
					.daemon()
					.name(ShardChannels.this.name + "-" + this.node)
					.start(this::run);
				return;
			}
			Subscription subscription = this.current;
			if (subscription != null) {
				subscription.reconcile();
			}
		}

		synchronized void remove(String channel) {
			this.wanted.remove(channel);
			Subscription subscription = this.current;
			if (subscription != null && this.requested.remove(channel)) {
				subscription.drop(channel);
			}
		}

		void stop() {
			this.stopped = true;
			Subscription subscription = this.current;
			if (subscription != null) {
				subscription.dropAll();
			}
		}

		private void run() {
			boolean failed = false;
			if (this.wanted.isEmpty()) {
				ended(this);
				return;
			}
			try (Connection connection = open()) {
				failures.remove(this.node);
				Subscription subscription = new Subscription(this);
				this.current = subscription;
				String first = this.wanted.iterator().next();
				this.requested.add(first);
				subscription.proceed(connection, first);
			}
			catch (RuntimeException ex) {
				if (this.stopped) {
					return;
				}
				log.warn("Lost the shard channel subscription at {} ({} in a row): {}", this.node,
						failures.merge(this.node, 1, Integer::sum), ex.toString());
				failed = true;
				sleep(backoff(failures.getOrDefault(this.node, 1)));
			}
			finally {
				this.current = null;
				this.confirmed.clear();
				this.requested.clear();
			}
			if (this.stopped) {
				return;
			}
			if (failed) {
				rehome(this);
			}
			else {
				ended(this);
			}
		}

		/**
		 * A connection of its own, never one of the pool's: a subscribed connection must
		 * not go back to the pool with a reply still on its way.
		 */
		private Connection open() {
			return new Connection(HostAndPort.from(this.node), clientConfig());
		}

	}

	private DefaultJedisClientConfig clientConfig() {
		var client = this.connections.getClientConfiguration();
		DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
			.connectionTimeoutMillis((int) client.getConnectTimeout().toMillis())
			.socketTimeoutMillis((int) client.getReadTimeout().toMillis())
			.ssl(client.isUseSsl());
		String username = username();
		if (username != null) {
			config.user(username);
		}
		if (this.connections.getPassword() != null) {
			config.password(this.connections.getPassword());
		}
		return config.build();
	}

	private @Nullable String username() {
		if (this.connections.isRedisSentinelAware()) {
			return this.connections.getSentinelConfiguration().getUsername();
		}
		if (this.connections.isRedisClusterAware()) {
			return this.connections.getClusterConfiguration().getUsername();
		}
		return this.connections.getStandaloneConfiguration().getUsername();
	}

	private static Duration backoff(int failures) {
		long millis = FIRST_RETRY.toMillis();
		for (int i = 1; i < failures && millis < LAST_RETRY.toMillis(); i++) {
			millis *= 2;
		}
		return Duration.ofMillis(Math.min(millis, LAST_RETRY.toMillis()));
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The subscription on one connection; its callbacks run on the shard's thread. */
	private final class Subscription extends JedisShardedPubSub {

		private final Shard shard;

		Subscription(Shard shard) {
			this.shard = shard;
		}

		@Override
		public void onSMessage(String channel, String message) {
			try {
				ShardChannels.this.listener.message(channel, message);
			}
			catch (RuntimeException ex) {
				log.warn("A listener failed on a message of {}", channel, ex);
			}
		}

		@Override
		public void onSSubscribe(String channel, int subscribedChannels) {
			this.shard.confirmed.add(channel);
			Thread.ofVirtual().name(ShardChannels.this.name + "-subscribed").start(() -> {
				try {
					ShardChannels.this.listener.subscribed(channel);
				}
				catch (RuntimeException ex) {
					log.warn("A listener failed on the subscription of {}", channel, ex);
				}
			});
			reconcile();
		}

		@Override
		public void onSUnsubscribe(String channel, int subscribedChannels) {
			this.shard.confirmed.remove(channel);
			if (this.shard.wanted.contains(channel) && this.shard.requested.remove(channel) && !this.shard.stopped) {
				// not asked for: the node gave the channel's slot away
				log.info("{} left the shard channel {} (its slot moved); subscribing it again", this.shard.node,
						channel);
				Thread.ofVirtual().start(() -> rehome(this.shard, channel));
			}
		}

		/** Unsubscribes the channel; a subscription with none left ends. */
		synchronized void drop(String channel) {
			sendWhileSubscribed(() -> sunsubscribe(channel));
		}

		synchronized void dropAll() {
			sendWhileSubscribed(this::sunsubscribe);
		}

		/**
		 * Sends a command on the subscribed connection; one that has just ended (its
		 * connection closed) is the shard's thread's to mend, and the command is moot.
		 */
		private void sendWhileSubscribed(Runnable command) {
			if (!isSubscribed()) {
				return;
			}
			try {
				command.run();
			}
			catch (JedisException ex) {
				log.debug("A shard channel command found its connection gone: {}", ex.toString());
			}
		}

		/**
		 * Subscribes every wanted channel not asked for yet, one slot per command (the
		 * commands of one connection are sent under this lock, never interleaved).
		 */
		synchronized void reconcile() {
			if (!isSubscribed()) {
				// the first confirmation reconciles
				return;
			}
			for (String channel : this.shard.wanted) {
				if (this.shard.requested.add(channel)) {
					sendWhileSubscribed(() -> ssubscribe(channel));
				}
			}
		}

	}

}
