package io.kindling.infra.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * A UDP socket on the loopback standing in for the relay's wake-up listener: a service
 * under test whose {@code kindling.outbox.wake-up-address} is {@link #address()} rings
 * it, and the test reads what it rang (the outbox table's name).
 *
 * <pre>
 * static final WakeUpListener relay = WakeUpListener.open();
 * // registry.add("kindling.outbox.wake-up-address", relay::address);
 * assertThat(relay.received(5_000)).isEqualTo("match_outbox");
 * </pre>
 */
public final class WakeUpListener implements AutoCloseable {

	private final DatagramSocket socket;

	private WakeUpListener(DatagramSocket socket) {
		this.socket = socket;
	}

	/** A listener on a free port of the loopback. */
	public static WakeUpListener open() {
		try {
			return new WakeUpListener(new DatagramSocket(0, InetAddress.getLoopbackAddress()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** {@code 127.0.0.1:<port>}, as the setting takes it. */
	public String address() {
		return "127.0.0.1:" + this.socket.getLocalPort();
	}

	/** The next wake-up's text, or null when none came within the timeout. */
	public @Nullable String received(int timeoutMillis) {
		DatagramPacket packet = new DatagramPacket(new byte[64], 64);
		try {
			this.socket.setSoTimeout(timeoutMillis);
			this.socket.receive(packet);
			return new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8);
		}
		catch (SocketTimeoutException ex) {
			return null;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Forgets every wake-up that came before (an earlier test's). */
	public void drain() {
		while (received(1) != null) {
			// skipped
		}
	}

	@Override
	public void close() {
		this.socket.close();
	}

}
