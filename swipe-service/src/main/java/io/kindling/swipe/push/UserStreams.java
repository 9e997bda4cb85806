package io.kindling.swipe.push;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import io.kindling.push.EventStreams;
import io.kindling.push.StreamLeases;
import io.kindling.redis.StreamEntryId;
import io.kindling.support.web.ProblemType;
import io.kindling.swipe.push.PushMessage.Pushed;
import io.kindling.swipe.push.ReadEventsScript.LoggedEvent;
import io.kindling.swipe.push.ReadEventsScript.Missed;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The users' streams open on this instance, each with the id of the last event it was
 * sent. A stream gets its user's events in log order, each once: an event whose
 * predecessor in the log is the one the stream got last is sent at once; any other (a
 * message overtaken by a later one, or one after a message lost while unsubscribed) is
 * sent after the stream reads what it missed from the log.
 */
@Component
class UserStreams extends EventStreams<UserStreams.Cursor> implements UserDisconnects {

	private static final Logger log = LoggerFactory.getLogger(UserStreams.class);

	/** The event that tells a stream opened without an id where it starts. */
	static final String POSITION = "position";

	private final ReadEventsScript reads;

	private final EventsProperties properties;

	UserStreams(StreamLeases leases, ReadEventsScript reads, EventsProperties properties) {
		super(leases);
		this.reads = reads;
		this.properties = properties;
	}

	/**
	 * Opens a stream for the user: with a {@code Last-Event-ID}, every event after it
	 * that the log still holds is sent first; without one, events from now on, and first
	 * a {@code position} event whose id is where the log stands. A client that drops
	 * before its first real event reconnects with that id and gets what came in between.
	 */
	SseEmitter open(long userId, @Nullable String lastEventId) throws IOException {
		StreamEntryId after = (lastEventId != null) ? StreamEntryId.parse(lastEventId)
			.orElseThrow(() -> ProblemType.INVALID_REQUEST.refused(
					"Last-Event-ID (or last_event_id) must be the id of an event this stream sent, such as 1767225600000-0."))
				: null;
		Cursor cursor = new Cursor();
		// held while the first events go, so that a live event waits for them
		cursor.lock.lock();
		try {
			return open(recipient(userId), cursor, this.properties.streamTimeout(), (emitter) -> {
				if (after == null) {
					cursor.lastSent = this.reads.after(userId, null).last();
					String id = cursor.lastSent.toString();
					send(recipient(userId), emitter, POSITION, Map.of("last_event_id", id), id);
				}
				else {
					cursor.lastSent = after;
					sendMissed(userId, emitter, cursor);
				}
			});
		}
		finally {
			cursor.lock.unlock();
		}
	}

	/** Sends an event just published to each of its recipient's streams here. */
	void deliver(Pushed event) {
		String recipient = recipient(event.recipient());
		StreamEntryId id = StreamEntryId.of(event.id());
		forEachStream(recipient, (emitter, cursor) -> {
			cursor.lock.lock();
			try {
				if (id.compareTo(cursor.lastSent) <= 0) {
					return;
				}
				if (StreamEntryId.of(event.previous()).equals(cursor.lastSent)) {
					if (send(recipient, emitter, event.type(), event.data(), event.id())) {
						cursor.lastSent = id;
					}
				}
				else {
					sendMissed(event.recipient(), emitter, cursor);
				}
			}
			finally {
				cursor.lock.unlock();
			}
		});
	}

	@Override
	public void disconnect(long userId, String event) {
		forEachStream(recipient(userId), (emitter, cursor) -> {
			cursor.lock.lock();
			try {
				emitter.send(SseEmitter.event().name(event).data(Map.of(), MediaType.APPLICATION_JSON));
			}
			catch (IOException | IllegalStateException ex) {
				log.debug("Could not tell a stream of user {} why it ends", userId, ex);
			}
			finally {
				cursor.lock.unlock();
			}
			emitter.complete();
		});
	}

	/**
	 * Brings every stream here up to date from the logs: after the subscription was
	 * (re)made, since pub/sub kept nothing for this instance while it was away.
	 */
	void catchUp() {
		for (String recipient : recipients()) {
			long userId = Long.parseLong(recipient);
			forEachStream(recipient, (emitter, cursor) -> {
				cursor.lock.lock();
				try {
					sendMissed(userId, emitter, cursor);
				}
				catch (RuntimeException ex) {
					// Redis went away again; the next subscription catches up
					log.warn("Could not bring the event stream of user {} up to date", userId, ex);
				}
				finally {
					cursor.lock.unlock();
				}
			});
		}
	}

	/** Sends the stream what the log holds after its last event; the cursor is held. */
	private void sendMissed(long userId, SseEmitter emitter, Cursor cursor) {
		Missed missed = this.reads.after(userId, cursor.lastSent);
		for (LoggedEvent event : missed.events()) {
			if (!send(recipient(userId), emitter, event.type(), event.data(), event.id().toString())) {
				return;
			}
			cursor.lastSent = event.id();
		}
		if (missed.events().isEmpty() && cursor.lastSent.compareTo(missed.last()) > 0) {
			// an id past the log's end (the log was lost): the next event is new to it
			cursor.lastSent = missed.last();
		}
	}

	private static String recipient(long userId) {
		return String.valueOf(userId);
	}

	/** Where one stream stands in its user's log. */
	static final class Cursor {

		private final ReentrantLock lock = new ReentrantLock();

		private StreamEntryId lastSent = StreamEntryId.NONE;

	}

}
