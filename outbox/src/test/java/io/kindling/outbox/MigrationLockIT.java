package io.kindling.outbox;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kindling.infra.test.RealServers;
import io.kindling.infra.test.RealServers.Server;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances starting together migrate one after the other: the second waits on the
 * database's named lock until the first has finished.
 */
@RealServers(Server.MARIADB)
class MigrationLockIT {

	@Test
	void aSecondInstanceWaitsUntilTheFirstHasMigrated() throws Exception {
		try (TestDatabase db = new TestDatabase("migration_lock")) {
			CountDownLatch firstMigrating = new CountDownLatch(1);
			CountDownLatch firstMayFinish = new CountDownLatch(1);
			AtomicBoolean secondRan = new AtomicBoolean();
			// a thread each: the common pool may have one worker, which the first would
			// hold
			ExecutorService instances = Executors.newFixedThreadPool(2);
			CompletableFuture<Void> first = CompletableFuture.runAsync(() -> MigrationLock.around(db.dataSource, () -> {
				firstMigrating.countDown();
				awaitQuietly(firstMayFinish);
			}), instances);
			assertThat(firstMigrating.await(30, TimeUnit.SECONDS)).isTrue();
			CompletableFuture<Void> second = CompletableFuture
				.runAsync(() -> MigrationLock.around(db.dataSource, () -> secondRan.set(true)), instances);

			// the second one's connection is waiting for the lock, and has run nothing
			await().atMost(Duration.ofSeconds(30)).until(() -> waitingForTheLock(db) == 1);
			assertThat(secondRan).isFalse();

			firstMayFinish.countDown();
			first.get(30, TimeUnit.SECONDS);
			second.get(30, TimeUnit.SECONDS);
			assertThat(secondRan).isTrue();
			assertThat(waitingForTheLock(db)).isZero();
			instances.shutdown();
		}
	}

	private static long waitingForTheLock(TestDatabase db) {
		return db.jdbc.sql("""
				SELECT COUNT(*) FROM information_schema.processlist
				WHERE db = :db AND state = 'User lock' AND info LIKE 'SELECT GET_LOCK%'
				""").param("db", db.name).query(Long.class).single();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
