package io.kindling.push;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The event streams open on this instance, by recipient (a session token, a user id),
 * each with what the service remembers of it ({@code S}: what it was last sent). A
 * recipient holds at most {@code kindling.web.max-streams-per-principal} streams across
 * instances ({@link StreamLeases}). They are completed when the instance stops, so a
 * graceful shutdown does not wait on them (clients reconnect elsewhere).
 *
 * @param <S> what is kept per stream
 */
public abstract class EventStreams<S> implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(EventStreams.class);

	private final Map<String, Map<SseEmitter, S>> streams = new ConcurrentHashMap<>();

	/** Each open stream's lease; removed once, when the stream goes. */
	private final Map<SseEmitter, StreamLeases.Lease> leaseOf = new ConcurrentHashMap<>();

	/**
	 * The streams that were sent their first events, by recipient: those a ping may
	 * reach.
	 */
	private final Map<SseEmitter, String> started = new ConcurrentHashMap<>();

	private final StreamLeases leases;

	private volatile boolean running;

	protected EventStreams(StreamLeases leases) {
		this.leases = leases;
	}

	/**
	 * Opens a stream to the recipient, started with a {@code :subscribed} comment so the
	 * client knows it is listening. It is registered before the first events are read and
	 * sent, so that an event published in between is not missed; if they cannot be (the
	 * store is away), the stream is dropped and the exception is the answer.
	 * @throws io.kindling.support.web.Refused {@code too-many-streams} when the recipient
	 * holds the most streams it may
	 */
	protected SseEmitter open(String recipient, S state, Duration timeout, FirstEvents first) throws IOException {
		StreamLeases.Lease lease = this.leases.acquire(recipient);
		SseEmitter emitter = new SseEmitter(timeout.toMillis());
		this.leaseOf.put(emitter, lease);
		this.streams.computeIfAbsent(recipient, (key) -> new ConcurrentHashMap<>()).put(emitter, state);
		Runnable remove = () -> remove(recipient, emitter);
		emitter.onCompletion(remove);
		emitter.onTimeout(remove);
		emitter.onError((ex) -> remove.run());
		try {
			emitter.send(SseEmitter.event().comment("subscribed"));
			first.send(emitter);
			this.started.put(emitter, recipient);
		}
		catch (IOException | RuntimeException ex) {
			remove.run();
			throw ex;
		}
		return emitter;
	}

	private void remove(String recipient, SseEmitter emitter) {
		this.streams.computeIfPresent(recipient, (key, emitters) -> {
			emitters.remove(emitter);
			return emitters.isEmpty() ? null : emitters;
		});
		this.started.remove(emitter);
		StreamLeases.Lease lease = this.leaseOf.remove(emitter);
		if (lease != null) {
			this.leases.release(lease);
		}
	}

	/**
	 * A comment to every stream: a client that went away is only noticed when its stream
	 * is written to, and until then its stream counts against its limit. Each on a thread
	 * of its own, as a client that stops reading holds its write until the socket times
	 * out.
	 */
	void ping() {
		this.started.forEach((emitter, recipient) -> Thread.ofVirtual().name("stream-ping").start(() -> {
			try {
				emitter.send(SseEmitter.event().comment("ping"));
			}
			catch (IOException | IllegalStateException ex) {
				log.debug("A stream's client went away", ex);
				remove(recipient, emitter);
			}
		}));
	}

	/** Whether any of these recipients has a stream open here. */
	public boolean holdsAny(Collection<String> recipients) {
		for (String recipient : recipients) {
			if (this.streams.containsKey(recipient)) {
				return true;
			}
		}
		return false;
	}

	/** The recipients with a stream open here now. */
	public Set<String> recipients() {
		return Set.copyOf(this.streams.keySet());
	}

	/** Calls the action for each stream the recipient has open here. */
	protected void forEachStream(String recipient, BiConsumer<SseEmitter, S> action) {
		Map<SseEmitter, S> emitters = this.streams.get(recipient);
		if (emitters != null) {
			emitters.forEach(action);
		}
	}

	/** What is kept for one open stream, or null once it is closed. */
	protected @Nullable S state(String recipient, SseEmitter emitter) {
		Map<SseEmitter, S> emitters = this.streams.get(recipient);
		return (emitters != null) ? emitters.get(emitter) : null;
	}

	/**
	 * Sends one event, its {@code id} after its {@code data} (the fields of an event may
	 * come in any order; readers that look for the name and the data first keep working).
	 * A client that went away has its stream dropped; it reconnects with its
	 * {@code Last-Event-ID}.
	 * @param data JSON: a string is sent as it is, anything else is written by Jackson
	 * @return whether the event was written
	 */
	protected boolean send(String recipient, SseEmitter emitter, String name, Object data, String id) {
		try {
			emitter.send(SseEmitter.event().name(name).data(data, MediaType.APPLICATION_JSON).id(id));
			return true;
		}
		catch (IOException | IllegalStateException ex) {
			log.debug("Could not push to a stream", ex);
			remove(recipient, emitter);
			return false;
		}
	}

	/** What a new stream is sent first: what it missed, or the state it is to know. */
	@FunctionalInterface
	protected interface FirstEvents {

		void send(SseEmitter emitter) throws IOException;

	}

	@Override
	public void start() {
		this.leases.beforeRenewal(this::ping);
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.streams.values().forEach((emitters) -> emitters.keySet().forEach(SseEmitter::complete));
		this.streams.clear();
		this.started.clear();
		this.leaseOf.values().forEach(this.leases::release);
		this.leaseOf.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
