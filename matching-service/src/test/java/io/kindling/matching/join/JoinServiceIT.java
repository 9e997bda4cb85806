package io.kindling.matching.join;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import io.kindling.matching.MatchingServiceTest;
import io.kindling.matching.MutableClock;
import io.kindling.matching.queue.ConfirmRoomScript;
import io.kindling.matching.queue.EnqueueScript;
import io.kindling.matching.queue.FormRoomScript;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.queue.PoppedRoom;
import io.kindling.matching.queue.TokenState;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A join whose caller another former (the sweeper, the other instance) popped into a room
 * between the join's enqueue and its own try, against the real Redis scripts.
 */
@MatchingServiceTest
class JoinServiceIT {

	@Autowired
	JoinService joins;

	@Autowired
	EnqueueScript enqueue;

	@Autowired
	FormRoomScript formRoom;

	@Autowired
	ConfirmRoomScript confirmRoom;

	@Autowired
	MutableClock clock;

	@Test
	void theCallerHearsTheRoomOnceTheOtherFormerHasWrittenItsConversation() {
		PoppedRoom room = popPair(new MatchQueue(901, 2));
		String caller = room.tokens().get(1);
		// the other former writes the conversation while the join waits
		CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
			pause(Duration.ofMillis(30));
			this.confirmRoom.confirm(room, 4242);
		});

		long started = System.nanoTime();
		TokenState state = this.joins.roomOf(caller);
		Duration waited = Duration.ofNanos(System.nanoTime() - started);

		written.join();
		assertThat(state).isInstanceOfSatisfying(TokenState.Matched.class, (matched) -> {
			assertThat(matched.conversationId()).isEqualTo(4242);
			assertThat(matched.roomId()).isEqualTo(room.roomId());
		});
		assertThat(MatchingStatus.of(state).isMatched()).isTrue();
		assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(30));
	}

	@Test
	void aRoomWhoseFormerDiedAnswersWaitingAfterTheShortWait() {
		PoppedRoom room = popPair(new MatchQueue(902, 2));
		String caller = room.tokens().get(1);

		long started = System.nanoTime();
		TokenState state = this.joins.roomOf(caller);
		Duration waited = Duration.ofNanos(System.nanoTime() - started);

		assertThat(state).isInstanceOf(TokenState.Forming.class);
		assertThat(MatchingStatus.of(state).status()).isEqualTo("waiting");
		assertThat(waited).isBetween(Duration.ofMillis(JoinService.FORMING_WAIT_MILLIS), Duration.ofSeconds(2));
	}

	/** Two tokens queued, then popped into a room whose conversation nobody wrote yet. */
	private PoppedRoom popPair(MatchQueue queue) {
		assertThat(this.enqueue.enqueue(UUID.randomUUID().toString(), queue, this.clock.instant())).isTrue();
		assertThat(this.enqueue.enqueue(UUID.randomUUID().toString(), queue, this.clock.instant())).isTrue();
		PoppedRoom room = this.formRoom.form(queue, UUID.randomUUID().toString(), this.clock.instant())
			.room()
			.orElseThrow();
		assertThat(room.tokens()).hasSize(2);
		return room;
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
