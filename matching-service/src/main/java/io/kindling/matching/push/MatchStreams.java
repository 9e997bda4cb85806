package io.kindling.matching.push;

import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import io.kindling.matching.join.MatchingStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The event streams open on this instance, by session token. They are completed when the
 * instance stops, so a graceful shutdown does not wait on them (clients reconnect
 * elsewhere).
 */
@Component
class MatchStreams implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(MatchStreams.class);

	/**
	 * Each token's open streams, each with the room it was last told of, so that no room
	 * is sent to a stream twice.
	 */
	private final Map<String, Map<SseEmitter, AtomicReference<String>>> streams = new ConcurrentHashMap<>();

	void add(String token, SseEmitter emitter) {
		this.streams.computeIfAbsent(token, (key) -> new ConcurrentHashMap<>()).put(emitter, new AtomicReference<>(""));
		Runnable remove = () -> remove(token, emitter);
		emitter.onCompletion(remove);
		emitter.onTimeout(remove);
		emitter.onError((ex) -> remove.run());
	}

	void remove(String token, SseEmitter emitter) {
		this.streams.computeIfPresent(token, (key, emitters) -> {
			emitters.remove(emitter);
			return emitters.isEmpty() ? null : emitters;
		});
	}

	/** Whether any of these tokens has a stream open here. */
	boolean holdsAny(Collection<String> tokens) {
		for (String token : tokens) {
			if (this.streams.containsKey(token)) {
				return true;
			}
		}
		return false;
	}

	/** The tokens with a stream open here now. */
	Set<String> tokens() {
		return Set.copyOf(this.streams.keySet());
	}

	/** Sends {@code matched} to every stream this token has open here. */
	void matched(String token, MatchingStatus.Matched status) {
		Map<SseEmitter, AtomicReference<String>> emitters = this.streams.get(token);
		if (emitters == null) {
			return;
		}
		for (SseEmitter emitter : emitters.keySet()) {
			send(token, emitter, status);
		}
	}

	/**
	 * Sends {@code matched} to one open stream, unless it was already told of this room:
	 * the pub/sub message and a catch-up after a lost subscription may both carry it.
	 */
	void send(String token, SseEmitter emitter, MatchingStatus.Matched status) {
		Map<SseEmitter, AtomicReference<String>> emitters = this.streams.get(token);
		AtomicReference<String> sentRoom = (emitters != null) ? emitters.get(emitter) : null;
		if (sentRoom == null || status.roomId().equals(sentRoom.getAndSet(status.roomId()))) {
			return;
		}
		try {
			emitter.send(SseEmitter.event().name("matched").data(status, MediaType.APPLICATION_JSON));
		}
		catch (IOException | IllegalStateException ex) {
			// the client went away; its stream is dropped and it can poll or reconnect
			log.debug("Could not push to a stream", ex);
			remove(token, emitter);
		}
	}

	private volatile boolean running;

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.streams.values().forEach((emitters) -> emitters.keySet().forEach(SseEmitter::complete));
		this.streams.clear();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
