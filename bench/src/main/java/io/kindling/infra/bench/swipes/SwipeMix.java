package io.kindling.infra.bench.swipes;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import org.jspecify.annotations.Nullable;

/**
 * The swipes a bench sends: 70 % PASS, 28 % LIKE, 2 % SUPER_LIKE, and 10 % of picks a
 * retry of a recent swipe with its key. User u's k-th swipe goes to u xor k, whose k-th
 * swipe comes back, so pairs swipe on each other and mutual likes happen.
 */
final class SwipeMix {

	/** What the loops count: swipes that made a match. */
	static final String MATCHES = "matches";

	/** What to send next: a new swipe with its own key, or a retry of an earlier one. */
	record Swipe(long userId, long targetUserId, String action, String key) {

	}

	/** One way of sending a swipe: over HTTP, or as the raw JDBC transactions. */
	interface Sender {

		/** Returns whether the swipe made a match. */
		boolean send(Swipe swipe) throws Exception;

	}

	private final long firstId;

	private final int users;

	private final AtomicInteger[] swiped;

	private final AtomicReferenceArray<@Nullable Swipe> recent = new AtomicReferenceArray<>(1024);

	SwipeMix(long firstId, int users) {
		this.firstId = firstId;
		this.users = users;
		this.swiped = new AtomicInteger[users];
		for (int i = 0; i < users; i++) {
			this.swiped[i] = new AtomicInteger();
		}
	}

	@Nullable Swipe next() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		if (random.nextInt(10) == 0) {
			Swipe retry = this.recent.get(random.nextInt(this.recent.length()));
			if (retry != null) {
				return retry;
			}
		}
		for (int attempt = 0; attempt < 100; attempt++) {
			int user = random.nextInt(this.users);
			int k = this.swiped[user].incrementAndGet();
			if (k >= this.users) {
				continue;
			}
			int roll = random.nextInt(100);
			String action = (roll < 70) ? "PASS" : (roll < 98) ? "LIKE" : "SUPER_LIKE";
			Swipe swipe = new Swipe(this.firstId + user, this.firstId + (user ^ k), action,
					UUID.randomUUID().toString());
			this.recent.set(random.nextInt(this.recent.length()), swipe);
			return swipe;
		}
		return null;
	}

	/** {@code clients} clients sending the mix at full speed for the seconds. */
	Result closedLoop(int clients, int seconds, Sender sender) throws InterruptedException {
		return Load.closedLoop(clients, Duration.ofSeconds(seconds), (call) -> send(call, sender));
	}

	/**
	 * A swipe every {@code 1 / perSecond} s whatever the answers take, each timed from
	 * when it was due (no coordinated omission).
	 */
	Result openLoop(double perSecond, int seconds, Sender sender) throws InterruptedException {
		return Load.openLoop(perSecond, Duration.ofSeconds(seconds), (call) -> send(call, sender));
	}

	private void send(Load.Call call, Sender sender) throws Exception {
		Swipe swipe = next();
		if (swipe == null) {
			call.finish();
		}
		else if (sender.send(swipe)) {
			call.count(MATCHES);
		}
	}

}
