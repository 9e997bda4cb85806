package io.kindling.matching.chat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

import io.kindling.matching.chat.ChatStore.Published;
import io.kindling.redis.StreamEntryId;
import io.kindling.redis.pubsub.ShardChannels;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;

/**
 * The room sockets open on this instance, by room, each with the id of the last entry it
 * was sent. A socket gets its room's entries in stream order, each once: an entry whose
 * predecessor is the one the socket got last is sent at once; any other (one after an
 * entry this instance did not hear, while its subscription was down) is sent after the
 * socket reads what it missed from the stream. The instance hears a room's channel while
 * it holds one of the room's sockets.
 */
final class ChatSockets implements ShardChannels.Listener {

	private static final Logger log = LoggerFactory.getLogger(ChatSockets.class);

	private final Map<Long, Set<RoomSocket>> rooms = new ConcurrentHashMap<>();

	private final Map<String, Long> roomsByChannel = new ConcurrentHashMap<>();

	private final ChatStore store;

	private final ChatFrames frames;

	private final int history;

	private @Nullable ShardChannels channels;

	ChatSockets(ChatStore store, ChatFrames frames, int history) {
		this.store = store;
		this.frames = frames;
		this.history = history;
	}

	/** The subscriptions this registry hears its rooms' channels through. */
	void hearThrough(ShardChannels channels) {
		this.channels = channels;
	}

	/**
	 * Registers a socket of a member, sends it {@code welcome} and the room's entries
	 * after {@code after} (without one, the room's last {@code history} entries), and
	 * hears the room from now on.
	 */
	RoomSocket open(WebSocketSession session, long conversationId, String alias, @Nullable StreamEntryId after)
			throws IOException {
		RoomSocket socket = new RoomSocket(session, conversationId, alias);
		// held while the first frames go, so that a live entry waits for them
		socket.lock.lock();
		try {
			register(socket);
			send(socket, this.frames.welcome(alias, this.store.present(conversationId)));
			if (after == null) {
				sendAll(socket, this.store.last(conversationId, this.history));
			}
			else {
				socket.lastSent = after;
				sendMissed(socket);
			}
		}
		finally {
			socket.lock.unlock();
		}
		return socket;
	}

	/**
	 * Adds the socket to its room here; the room's channel is heard with its first
	 * socket.
	 */
	private void register(RoomSocket socket) {
		synchronized (this.rooms) {
			Set<RoomSocket> sockets = this.rooms.computeIfAbsent(socket.conversationId,
					(id) -> ConcurrentHashMap.newKeySet());
			sockets.add(socket);
			if (sockets.size() == 1) {
				String channel = ChatStore.channel(socket.conversationId);
				this.roomsByChannel.put(channel, socket.conversationId);
				if (this.channels != null) {
					this.channels.subscribe(channel);
				}
			}
		}
	}

	/** Forgets a closed socket; the room's channel is left with its last socket here. */
	void closed(RoomSocket socket) {
		synchronized (this.rooms) {
			Set<RoomSocket> sockets = this.rooms.get(socket.conversationId);
			if (sockets == null || !sockets.remove(socket) || !sockets.isEmpty()) {
				return;
			}
			this.rooms.remove(socket.conversationId);
			String channel = ChatStore.channel(socket.conversationId);
			this.roomsByChannel.remove(channel);
			if (this.channels != null) {
				this.channels.unsubscribe(channel);
			}
		}
	}

	/** Sends one frame to one socket (an error, say); false once the socket is gone. */
	boolean send(RoomSocket socket, String frame) {
		if (!socket.session.isOpen()) {
			return false;
		}
		try {
			socket.session.sendMessage(new TextMessage(frame));
			return true;
		}
		catch (IOException | IllegalStateException ex) {
			log.debug("A room socket went away while sent a frame: {}", ex.toString());
			return false;
		}
	}

	@Override
	public void message(String channel, String message) {
		Long conversationId = this.roomsByChannel.get(channel);
		if (conversationId == null) {
			return;
		}
		Published published = this.store.published(message);
		for (RoomSocket socket : sockets(conversationId)) {
			socket.lock.lock();
			try {
				if (published.entry().id().compareTo(socket.lastSent) <= 0) {
					continue;
				}
				if (published.previous().equals(socket.lastSent)) {
					sendAll(socket, List.of(published.entry()));
				}
				else {
					sendMissed(socket);
				}
			}
			finally {
				socket.lock.unlock();
			}
		}
	}

	/**
	 * Brings the room's sockets up to date from the stream: after its channel was
	 * (re)subscribed, since pub/sub kept nothing for this instance while it was not.
	 */
	@Override
	public void subscribed(String channel) {
		Long conversationId = this.roomsByChannel.get(channel);
		if (conversationId == null) {
			return;
		}
		for (RoomSocket socket : sockets(conversationId)) {
			socket.lock.lock();
			try {
				sendMissed(socket);
			}
			catch (RuntimeException ex) {
				// Redis went away again; the next subscription catches up
				log.warn("Could not bring a socket of room {} up to date", conversationId, ex);
			}
			finally {
				socket.lock.unlock();
			}
		}
	}

	/** The room's sockets here, for a leave to close those of its member. */
	List<RoomSocket> sockets(long conversationId) {
		Set<RoomSocket> sockets = this.rooms.get(conversationId);
		return (sockets != null) ? List.copyOf(sockets) : List.of();
	}

	/** Sends what the stream holds after the socket's last entry; its lock is held. */
	private void sendMissed(RoomSocket socket) {
		List<ChatEntry> missed = this.store.after(socket.conversationId, socket.lastSent, this.history);
		if (missed.isEmpty()) {
			StreamEntryId last = this.store.lastId(socket.conversationId);
			if (socket.lastSent.compareTo(last) > 0) {
				// an id past the stream's end (a failover lost its last entries): the
				// next entry is new to this socket, whatever its id
				socket.lastSent = last;
			}
			return;
		}
		sendAll(socket, missed);
	}

	/**
	 * Sends the entries in order, each as the socket's member sees it; a {@code left} of
	 * that member ends the socket.
	 */
	private void sendAll(RoomSocket socket, List<ChatEntry> entries) {
		for (ChatEntry entry : entries) {
			if (!send(socket, this.frames.entry(entry, socket.alias))) {
				return;
			}
			socket.lastSent = entry.id();
			if (entry.kind() == ChatEntry.Kind.LEFT && entry.member().equals(socket.alias)) {
				close(socket, CloseStatus.NORMAL.withReason("left the room"));
				return;
			}
		}
	}

	void close(RoomSocket socket, CloseStatus status) {
		try {
			socket.session.close(status);
		}
		catch (IOException ex) {
			log.debug("A room socket could not be closed cleanly: {}", ex.toString());
		}
	}

	/** One open socket of a member, and where it stands in its room's stream. */
	static final class RoomSocket {

		private final WebSocketSession session;

		private final long conversationId;

		private final String alias;

		private final ReentrantLock lock = new ReentrantLock();

		private StreamEntryId lastSent = StreamEntryId.NONE;

		RoomSocket(WebSocketSession session, long conversationId, String alias) {
			this.session = session;
			this.conversationId = conversationId;
			this.alias = alias;
		}

		long conversationId() {
			return this.conversationId;
		}

		String alias() {
			return this.alias;
		}

	}

}
