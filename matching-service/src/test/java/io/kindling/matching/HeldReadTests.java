package io.kindling.matching;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.kindling.infra.test.MutableClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HeldReadTests {

	private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

	private final AtomicInteger reads = new AtomicInteger();

	@Test
	void aReadIsTrustedForTheTtlOnTheClockGiven() {
		HeldRead<Integer> held = new HeldRead<>(Duration.ofSeconds(5), this.clock,
				(now) -> this.reads.incrementAndGet());

		assertThat(held.get()).isEqualTo(1);
		this.clock.advance(Duration.ofMillis(4999));
		assertThat(held.get()).isEqualTo(1);
		this.clock.advance(Duration.ofMillis(1));
		assertThat(held.get()).isEqualTo(2);
	}

	@Test
	void callersArrivingDuringAReadWaitForItInsteadOfReading() throws Exception {
		CountDownLatch reading = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		HeldRead<Integer> held = new HeldRead<>(Duration.ofSeconds(5), this.clock, (now) -> {
			reading.countDown();
			await(release);
			return this.reads.incrementAndGet();
		});

		CompletableFuture<Integer> first = CompletableFuture.supplyAsync(held::get);
		assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
		AtomicInteger secondGot = new AtomicInteger();
		Thread second = new Thread(() -> secondGot.set(held.get()));
		second.start();
		waitUntilWaitingOrDone(second);
		release.countDown();
		second.join(10_000);

		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
		assertThat(secondGot).hasValue(1);
		assertThat(this.reads).hasValue(1);
	}

	@Test
	void aReadBegunBeforeForgetDoesNotStayHeldAfterIt() throws Exception {
		CountDownLatch reading = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		HeldRead<Integer> held = new HeldRead<>(Duration.ofSeconds(5), this.clock, (now) -> {
			int read = this.reads.incrementAndGet();
			if (read == 1) {
				reading.countDown();
				await(release);
			}
			return read;
		});

		CompletableFuture<Integer> before = CompletableFuture.supplyAsync(held::get);
		assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
		// Caffeine's invalidate may wait for the read under way: forget from another
		// thread
		Thread forgetting = new Thread(held::forget);
		forgetting.start();
		waitUntilWaitingOrDone(forgetting);
		release.countDown();
		forgetting.join(10_000);
		assertThat(forgetting.isAlive()).isFalse();

		assertThat(before.get(10, TimeUnit.SECONDS)).as("the read begun before forget").isEqualTo(1);
		assertThat(held.get()).as("read again after forget, though within the TTL").isEqualTo(2);
		assertThat(held.get()).isEqualTo(2);
	}

	/** Until the thread waits on something (here, on the read under way) or has ended. */
	private static void waitUntilWaitingOrDone(Thread thread) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!Set.of(Thread.State.BLOCKED, Thread.State.WAITING, Thread.State.TERMINATED)
			.contains(thread.getState())) {
			assertThat(System.nanoTime()).as("the thread waits or ends").isLessThan(deadline);
			Thread.onSpinWait();
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
