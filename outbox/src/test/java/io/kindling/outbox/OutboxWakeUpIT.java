package io.kindling.outbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The relays' wake-up: one datagram with the table's name after a commit that wrote
 * outbox rows; none before the commit, none after a rollback, none for a transaction
 * without rows. A socket here stands in for the relay.
 */
@RealServers(Server.MARIADB)
class OutboxWakeUpIT {

	static TestDatabase db;

	static DatagramChannel relay;

	static OutboxWriter rooms;

	static OutboxWriter matches;

	@BeforeAll
	static void start() throws IOException {
		db = new TestDatabase("outbox_wake_up_it");
		OutboxSchema.migrate(db.dataSource, "room_outbox");
		OutboxSchema.migrate(db.dataSource, "match_outbox");
		relay = DatagramChannel.open(StandardProtocolFamily.INET).bind(new InetSocketAddress("127.0.0.1", 0));
		OutboxWakeUp wakeUp = OutboxWakeUp.udp("127.0.0.1:" + ((InetSocketAddress) relay.getLocalAddress()).getPort());
		rooms = new OutboxWriter(db.jdbc, "room_outbox", wakeUp);
		matches = new OutboxWriter(db.jdbc, "match_outbox", wakeUp);
	}

	@AfterAll
	static void close() throws IOException {
		relay.close();
		db.close();
	}

	@BeforeEach
	void nothingWaiting() throws IOException {
		while (pending() != null) {
			// left by an earlier test
		}
	}

	@Test
	void aCommitWithOutboxRowsRingsOnceCommitted() throws IOException {
		db.transactions.executeWithoutResult((status) -> {
			rooms.append(OutboxWriterIT.event("room-1", "{}", Instant.now()));
			rooms.append(OutboxWriterIT.event("room-2", "{}", Instant.now()));
			assertThat(pending()).as("a datagram before the commit").isNull();
		});
		assertThat(received()).isEqualTo("room_outbox");
	}

	@Test
	void aRollbackRingsNothing() throws IOException {
		db.transactions.executeWithoutResult((status) -> {
			rooms.append(OutboxWriterIT.event("room-1", "{}", Instant.now()));
			status.setRollbackOnly();
		});
		// a transaction without outbox rows rings nothing either
		db.transactions.executeWithoutResult((status) -> db.count("room_outbox"));
		// then a commit on the other table: its datagram, sent after any the rollback
		// would have sent, is the first and only one to arrive
		db.transactions
			.executeWithoutResult((status) -> matches.append(OutboxWriterIT.event("12:34", "{}", Instant.now())));
		assertThat(received()).isEqualTo("match_outbox");
		assertThat(pending()).isNull();
	}

	@Test
	void everyRelayOfTheListIsRung() throws IOException {
		try (DatagramChannel second = DatagramChannel.open(StandardProtocolFamily.INET)
			.bind(new InetSocketAddress("127.0.0.1", 0))) {
			OutboxWriter writer = new OutboxWriter(db.jdbc, "room_outbox",
					OutboxWakeUp.udp("127.0.0.1:" + ((InetSocketAddress) relay.getLocalAddress()).getPort()
							+ ", 127.0.0.1:" + ((InetSocketAddress) second.getLocalAddress()).getPort()));
			db.transactions
				.executeWithoutResult((status) -> writer.append(OutboxWriterIT.event("room-1", "{}", Instant.now())));
			assertThat(received()).isEqualTo("room_outbox");
			assertThat(received(second)).isEqualTo("room_outbox");
		}
	}

	@Test
	void theDatagramsLeaveByOneSocketOpenedAgainOnceClosed() throws IOException {
		OutboxWakeUp wakeUp = OutboxWakeUp.udp("127.0.0.1:" + ((InetSocketAddress) relay.getLocalAddress()).getPort());
		wakeUp.ring("room_outbox");
		SocketAddress first = sender();
		wakeUp.ring("room_outbox");
		assertThat(sender()).as("the second ring's socket").isEqualTo(first);
		// an interrupted send closes the socket (ClosedByInterruptException): that ring
		// is lost, the next one opens a socket of its own
		Thread.currentThread().interrupt();
		try {
			wakeUp.ring("room_outbox");
		}
		finally {
			assertThat(Thread.interrupted()).as("the interrupt was there for the ring").isTrue();
		}
		assertThat(pending()).as("the interrupted ring's datagram").isNull();
		wakeUp.ring("match_outbox");
		assertThat(received()).isEqualTo("match_outbox");
	}

	/** Where the next datagram came from, waiting up to 5 s for it. */
	private static SocketAddress sender() throws IOException {
		relay.configureBlocking(false);
		try (Selector selector = Selector.open()) {
			relay.register(selector, SelectionKey.OP_READ);
			assertThat(selector.select(5_000)).as("datagrams within 5 s").isPositive();
		}
		return relay.receive(ByteBuffer.allocate(256));
	}

	@Test
	void anEmptyAddressTurnsTheWakeUpOff() {
		assertThat(OutboxWakeUp.udp(" ").isNone()).isTrue();
		assertThat(OutboxWakeUp.udp("127.0.0.1:1").isNone()).isFalse();
	}

	/** The next datagram, waiting up to 5 s for it. */
	private static @Nullable String received() throws IOException {
		return received(relay);
	}

	private static @Nullable String received(DatagramChannel channel) throws IOException {
		channel.configureBlocking(false);
		try (Selector selector = Selector.open()) {
			channel.register(selector, SelectionKey.OP_READ);
			if (selector.select(5_000) == 0) {
				return null;
			}
		}
		return read(channel);
	}

	/** A datagram that has arrived already, if any. */
	private static @Nullable String pending() {
		try {
			relay.configureBlocking(false);
			return read(relay);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static @Nullable String read(DatagramChannel channel) throws IOException {
		ByteBuffer buffer = ByteBuffer.allocate(256);
		if (channel.receive(buffer) == null) {
			return null;
		}
		buffer.flip();
		return StandardCharsets.UTF_8.decode(buffer).toString();
	}

}
