package io.kindling.matching.room;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import io.kindling.infra.test.WakeUpListener;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.QueueEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A formed room's {@code ROOM_FORMED} row rings the relay's UDP wake-up once the
 * conversation commits, and a failed write rings nothing.
 */
@RealServers(value = { Server.REDIS, Server.MARIADB }, database = "kindling_matching")
@SpringBootTest(properties = "kindling.matching.sweep-interval=1h") // no room of another
																	// test rings here
class ConversationWakeUpIT {

	static final WakeUpListener relay = WakeUpListener.open();

	@Autowired
	ConversationWriter writer;

	@DynamicPropertySource
	static void settings(DynamicPropertyRegistry registry) {
		registry.add("kindling.outbox.wake-up-address", relay::address);
	}

	@AfterAll
	static void close() {
		relay.close();
	}

	@Test
	void aWrittenRoomRingsTheRelayAndAFailedOneDoesNot() {
		Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
		PoppedRoom room = new PoppedRoom(UUID.randomUUID().toString(), new MatchQueue(1, 2), false, now,
				List.of(new QueueEntry("wake-a-" + UUID.randomUUID(), "a", now),
						new QueueEntry("wake-b-" + UUID.randomUUID(), "b", now)));
		long committing = System.nanoTime();
		this.writer.write(room);
		assertThat(relay.received(5_000)).isEqualTo("room_outbox");
		System.out.printf("wake-up received %.1f ms after the write began%n", (System.nanoTime() - committing) / 1e6);

		// the same room id again breaks uk_conversations_room: the transaction rolls back
		assertThatException().isThrownBy(() -> this.writer.write(room));
		assertThat(relay.received(500)).isNull();
	}

}
