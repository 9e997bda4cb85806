package io.kindling.outbox;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Tells the relays, right after a transaction with outbox rows commits, that the table
 * has new rows, so they publish at once instead of at their next poll. It is one UDP
 * datagram (the table name) to each relay's {@code kindling.relay.wake-up-port}: fire and
 * forget, never blocking the writer; a lost datagram costs one poll interval, never an
 * event.
 */
public final class OutboxWakeUp {

	private static final OutboxWakeUp NONE = new OutboxWakeUp(List.of());

	private final List<InetSocketAddress> relays;

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
		try (DatagramChannel channel = DatagramChannel.open()) {
			for (InetSocketAddress relay : this.relays) {
				channel.send(ByteBuffer.wrap(message), relay);
			}
		}
		catch (IOException | RuntimeException ex) {
			// The relay polls anyway; a wake-up is only a shortcut.
		}
	}

}
