package io.kindling.relay.publish;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;

import io.kindling.relay.RelayProperties;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Receives the writers' after-commit wake-ups ({@code io.kindling.outbox.OutboxWakeUp})
 * on UDP {@code kindling.relay.wake-up-port} and makes the named table's probe run now.
 * Off when the port is 0, or when another relay on this host holds it. A datagram can
 * only bring a probe forward, and probes stay at least {@code polling.min-interval}
 * apart, so a flood cannot make the relay hammer the database.
 */
@Component
class WakeUpListener implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(WakeUpListener.class);

	private final RelayRunner runner;

	private final int port;

	private @Nullable DatagramChannel channel;

	private volatile boolean running;

	WakeUpListener(RelayRunner runner, RelayProperties properties) {
		this.runner = runner;
		this.port = properties.wakeUpPort();
	}

	@Override
	public void start() {
		if (this.port == 0) {
			return;
		}
		try {
			DatagramChannel opened = DatagramChannel.open().bind(new InetSocketAddress(this.port));
			this.channel = opened;
			this.running = true;
			Thread.ofPlatform().name("relay-wake-up").daemon().start(() -> listen(opened));
			log.info("Listening for outbox wake-ups on UDP port {}", this.port);
		}
		catch (IOException ex) {
			// Wake-ups only bring polls forward: a second relay on this host polls
			// instead of refusing to start.
			log.warn("UDP port {} is taken, so this relay polls without wake-ups ({})", this.port, ex.toString());
		}
	}

	private void listen(DatagramChannel opened) {
		ByteBuffer buffer = ByteBuffer.allocate(256);
		while (this.running) {
			try {
				buffer.clear();
				opened.receive(buffer);
				buffer.flip();
				this.runner.wakeUp(StandardCharsets.UTF_8.decode(buffer).toString().strip());
			}
			catch (ClosedChannelException ex) {
				return;
			}
			catch (IOException ex) {
				log.debug("wake-up not received: {}", ex.toString());
			}
		}
	}

	@Override
	public void stop() {
		this.running = false;
		DatagramChannel opened = this.channel;
		if (opened != null) {
			try {
				opened.close();
			}
			catch (IOException ex) {
				// closing anyway
			}
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
