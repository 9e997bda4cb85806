package io.kindling.swipe.push;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.kindling.swipe.push.AppendEventScript.Appended;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Appends each event to its recipient's log (which gives it its id), then publishes them
 * all in one pub/sub message that every instance hears. Runs after the commit, on the
 * committing thread, so the push leaves the moment the fact is durable.
 */
@Component
class RedisUserEvents implements UserEvents {

	private static final Logger log = LoggerFactory.getLogger(RedisUserEvents.class);

	private final AppendEventScript append;

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	RedisUserEvents(AppendEventScript append, StringRedisTemplate redis, JsonMapper json) {
		this.append = append;
		this.redis = redis;
		this.json = json;
	}

	@Override
	public void sendAfterCommit(List<UserEvent> events) {
		if (!TransactionSynchronizationManager.isSynchronizationActive()) {
			throw new IllegalStateException("a push is sent after the commit of what it reports");
		}
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCommit() {
				send(events);
			}
		});
	}

	/**
	 * Best effort: what is committed stays committed whatever Redis does. An event that
	 * reached its log but not pub/sub reaches the stream with the next event or on the
	 * client's reconnect; one that did not reach its log is in {@code GET /api/matches}.
	 * Where one connection reaches every log, all the appends share one round trip;
	 * either way the publish is one more.
	 */
	@Override
	public void send(List<UserEvent> events) {
		List<String> data = asJson(events);
		List<PushMessage.Pushed> pushed = new ArrayList<>(events.size());
		if (this.append.inOneRoundTrip()) {
			appendTogether(events, data, pushed);
		}
		else {
			for (int i = 0; i < events.size(); i++) {
				appendTogether(List.of(events.get(i)), List.of(data.get(i)), pushed);
			}
		}
		if (pushed.isEmpty()) {
			return;
		}
		try {
			this.redis.convertAndSend(PushMessage.CHANNEL, this.json.writeValueAsString(new PushMessage(pushed)));
		}
		catch (DataAccessException ex) {
			log.warn("Could not publish {} events", pushed.size(), ex);
		}
	}

	private void appendTogether(List<UserEvent> events, List<String> data, List<PushMessage.Pushed> pushed) {
		List<Appended> appended;
		try {
			appended = this.append.appendAll(events, data);
		}
		catch (DataAccessException ex) {
			log.warn("Could not log {} events, the first a {} event for user {}", events.size(), events.get(0).type(),
					events.get(0).recipient(), ex);
			return;
		}
		for (int i = 0; i < events.size(); i++) {
			UserEvent event = events.get(i);
			pushed.add(new PushMessage.Pushed(event.recipient(), appended.get(i).id().toString(),
					appended.get(i).previous().toString(), event.type(), data.get(i)));
		}
	}

	/**
	 * Each event's data as JSON, written once for events that share it (both people's).
	 */
	private List<String> asJson(List<UserEvent> events) {
		Map<Object, String> written = new IdentityHashMap<>();
		List<String> data = new ArrayList<>(events.size());
		for (UserEvent event : events) {
			data.add(written.computeIfAbsent(event.data(), this.json::writeValueAsString));
		}
		return data;
	}

}
