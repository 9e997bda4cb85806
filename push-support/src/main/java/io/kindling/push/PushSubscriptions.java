package io.kindling.push;

import java.time.Duration;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The pub/sub subscription through which an instance hears events published on any
 * instance. Pub/sub keeps nothing for a subscriber that is away, so a listener that is
 * also a {@link SubscriptionListener} is told every time the subscription is made (the
 * first included), to bring its streams up to date from what Redis stores.
 */
public final class PushSubscriptions {

	/** How long a start waits for its subscription before it fails. */
	private static final Duration SUBSCRIPTION_WAIT = Duration.ofSeconds(30);

	private PushSubscriptions() {
	}

	/**
	 * A listener container for one channel: messages delivered on virtual threads, the
	 * subscription retried from 100 ms after Redis went away.
	 * @param name the delivery threads' name prefix
	 */
	public static RedisMessageListenerContainer container(RedisConnectionFactory connections, String channel,
			MessageListener listener, String name) {
		RedisMessageListenerContainer container = new RedisMessageListenerContainer();
		container.setConnectionFactory(connections);
		// the default executor starts a platform thread for every message: thousands a
		// minute at a hundred events a second
		SimpleAsyncTaskExecutor delivery = new SimpleAsyncTaskExecutor(name + "-");
		delivery.setVirtualThreads(true);
		container.setTaskExecutor(delivery);
		// resubscribe within a few hundred ms of Redis coming back, not the default 5 s
		ExponentialBackOff recovery = new ExponentialBackOff(100, 2);
		recovery.setMaxInterval(2_000);
		container.setRecoveryBackoff(recovery);
		// a start waits for the subscription, 2 s by default: a loaded machine starting
		// a service with two of these took longer, and the start failed; a subscription
		// made late loses nothing, its listener catches up when it is made
		container.setMaxSubscriptionRegistrationWaitingTime(SUBSCRIPTION_WAIT.toMillis());
		container.addMessageListener(listener, new ChannelTopic(channel));
		return container;
	}

}
