package io.kindling.outbox;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Tells the relays, right after a transaction with outbox rows commits, that the table
 * has new rows, so they publish at once instead of at their next poll. It is one UDP
 * datagram (the table name) to each relay's {@code kindling.relay.wake-up-port}: fire and
 * forget, never blocking the writer; a lost datagram costs one poll interval, never an
 * event. The datagrams leave through one socket, opened at the first and kept: a socket
 * opened, bound and closed for each commit was a tenth of a group commit's CPU.
 */
public final class OutboxWakeUp {

	private static final OutboxWakeUp NONE = new OutboxWakeUp(List.of());

	private final List<InetSocketAddress> relays;

	private @Nullable DatagramChannel channel;

	private OutboxWakeUp(List<InetSocketAddress> relays) {
		this.relays = List.copyOf(relays);
	}

	/** No wake-up: the relays find the rows by polling. */
	public static OutboxWakeUp none() {
		return NONE;
	}

	/** Rings these relays, for example {@code 127.0.0.1:8083}. */
	public static OutboxWakeUp udp(List<InetSocketAddress> relays) {
		return new OutboxWakeUp(relays);
	}

	/** Parses {@code host:port,host:port}; empty means none. */
	public static OutboxWakeUp udp(String relays) {
		if (relays.isBlank()) {
			return NONE;
		}
		return udp(java.util.Arrays.stream(relays.split(","))
			.map(String::strip)
			.map((relay) -> new InetSocketAddress(relay.substring(0, relay.lastIndexOf(':')),
					Integer.parseInt(relay.substring(relay.lastIndexOf(':') + 1))))
			.toList());
	}

	boolean isNone() {
		return this.relays.isEmpty();
	}

	/**
	 * Rings for this table once the caller's transaction commits; nothing on rollback,
	 * and nothing without transaction synchronization (polling finds the rows).
	 */
	public void ringAfterCommit(String table) {
		if (this.relays.isEmpty() || !TransactionSynchronizationManager.isSynchronizationActive()) {
			return;
		}
		TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
			@Override
			public void afterCommit() {
				ring(table);
			}
		});
	}

	/**
	 * Sends the wake-up for this table; failures are ignored, polling still finds the
	 * rows.
	 */
	public void ring(String table) {
		if (this.relays.isEmpty()) {
			return;
		}
		byte[] message = table.getBytes(StandardCharsets.UTF_8);
		try {
			DatagramChannel open = channel();
			for (InetSocketAddress relay : this.relays) {
				open.send(ByteBuffer.wrap(message), relay);
			}
		}
		catch (IOException | RuntimeException ex) {
			// The relay polls anyway; a wake-up is only a shortcut. A socket that failed
			// (or was closed by an interrupt) is opened again at the next ring.
		}
	}

	/** The socket the datagrams leave by, opened again when it was closed. */
	private synchronized DatagramChannel channel() throws IOException {
		DatagramChannel open = this.channel;
		if (open == null || !open.isOpen()) {
			open = DatagramChannel.open();
			this.channel = open;
		}
		return open;
	}

}
