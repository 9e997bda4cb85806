package io.kindling.relay.publish;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.kindling.relay.RelayProperties;
import io.kindling.support.server.ServerBinding;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Receives the writers' after-commit wake-ups ({@code io.kindling.outbox.OutboxWakeUp})
 * on UDP {@code kindling.relay.wake-up-port}, on {@code kindling.bind-address}, and makes
 * the named table's workers claim now. Off when the port is 0, or when another relay on
 * this host holds it.
 * <p>
 * Anyone who reaches the port can send a datagram, so it is believed only so far: a
 * datagram that names no table of this relay is dropped, and each table takes at most
 * {@code wake-ups-per-second} wake-ups in a second of the clock, the rest dropped. Each
 * is counted in {@code kindling.relay.wake.ups} by result. A wake-up only brings a claim
 * forward, so a dropped one costs at most a probe interval.
 */
@Component
class WakeUpListener implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(WakeUpListener.class);

	private final RelayRunner runner;

	private final InetSocketAddress address;

	private final Clock clock;

	/** Each table's allowance, touched only by the listening thread. */
	private final Map<String, Allowance> allowances;

	private final Counter unknownTable;

	private final Counter overRate;

	private final Counter taken;

	private @Nullable DatagramChannel channel;

	private volatile boolean running;

	WakeUpListener(RelayRunner runner, RelayProperties properties, ServerBinding binding, Clock clock,
			MeterRegistry registry) {
		this.runner = runner;
		this.address = (binding.bindAddress() != null)
				? new InetSocketAddress(binding.bindAddress(), properties.wakeUpPort())
				: new InetSocketAddress(properties.wakeUpPort());
		this.clock = clock;
		this.allowances = runner.tables()
			.stream()
			.collect(Collectors.toUnmodifiableMap(Function.identity(),
					(table) -> new Allowance(properties.wakeUpsPerSecond())));
		this.taken = wakeUps(registry, "taken");
		this.unknownTable = wakeUps(registry, "unknown_table");
		this.overRate = wakeUps(registry, "over_rate");
	}

	private static Counter wakeUps(MeterRegistry registry, String result) {
		return Counter.builder("kindling.relay.wake.ups")
			.description("Datagrams on the wake-up port: taken, or dropped for naming no table of this relay or"
					+ " for coming over the table's wake-ups-per-second")
			.tag("result", result)
			.register(registry);
	}

	@Override
	public void start() {
		if (this.address.getPort() == 0) {
			return;
		}
		try {
			DatagramChannel opened = DatagramChannel.open().bind(this.address);
			this.channel = opened;
			this.running = true;
			Thread.ofPlatform().name("relay-wake-up").daemon().start(() -> listen(opened));
			log.info("Listening for outbox wake-ups on UDP {}", this.address);
		}
		catch (IOException ex) {
			// Wake-ups only bring claims forward: a second relay on this host polls
			// instead of refusing to start.
			log.warn("UDP {} is taken, so this relay polls without wake-ups ({})", this.address, ex.toString());
		}
	}

	private void listen(DatagramChannel opened) {
		ByteBuffer buffer = ByteBuffer.allocate(256);
		while (this.running) {
			try {
				buffer.clear();
				opened.receive(buffer);
				buffer.flip();
				received(StandardCharsets.UTF_8.decode(buffer).toString().strip());
			}
			catch (ClosedChannelException ex) {
				return;
			}
			catch (IOException ex) {
				log.debug("wake-up not received: {}", ex.toString());
			}
		}
	}

	private void received(String table) {
		Allowance allowance = this.allowances.get(table);
		if (allowance == null) {
			this.unknownTable.increment();
		}
		else if (!allowance.take(this.clock.millis() / 1000)) {
			this.overRate.increment();
		}
		else {
			this.taken.increment();
			this.runner.wakeUp(table);
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

	/** At most {@code perSecond} wake-ups in each second of the clock. */
	private static final class Allowance {

		private final int perSecond;

		private long second = -1;

		private int taken;

		Allowance(int perSecond) {
			this.perSecond = perSecond;
		}

		boolean take(long now) {
			if (now != this.second) {
				this.second = now;
				this.taken = 0;
			}
			return ++this.taken <= this.perSecond;
		}

	}

}
