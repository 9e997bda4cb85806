package io.kindling.infra.bench.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChecksTests {

	/** Swipers and joiners fail from their own threads, all at once. */
	@Test
	void failuresFromManyThreadsAtOnceAreAllKept() throws Exception {
		Checks checks = new Checks();
		int threads = 4;
		int each = 50_000;
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				int worker = t;
				workers.add(pool.submit(() -> {
					start.await();
					for (int i = 0; i < each; i++) {
						checks.fail("worker " + worker + " failure " + i);
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> worker : workers) {
				worker.get();
			}
		}
		finally {
			pool.shutdownNow();
		}

		assertThat(checks.failed()).isEqualTo(threads * each);
		assertThat(checks.passed()).isFalse();
	}

}
