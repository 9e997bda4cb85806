package io.kindling.matching.room;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import java.util.concurrent.ScheduledFuture;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.queue.ActiveQueues;
import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.stats.QueueStats;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;

/**
 * Visits every active queue each {@code sweep-interval} and runs the forming script, so
 * the fallback and the timeout happen with nobody polling. Several instances sweeping at
 * once stay correct: it is the same atomic script a poll runs.
 */
@Component
class RoomSweeper implements SmartLifecycle {

	private static final Logger log = LoggerFactory.getLogger(RoomSweeper.class);

	/**
	 * A queue that keeps forming rooms yields to the others after this many per sweep.
	 */
	private static final int MOST_ROOMS_PER_QUEUE = 200;

	private final ActiveQueues queues;

	private final RoomClaims claims;

	private final TaskScheduler scheduler;

	private final QueueStats stats;

	private final MatchingProperties properties;

	private final Clock clock;

	private volatile @Nullable ScheduledFuture<?> task;

	RoomSweeper(ActiveQueues queues, RoomClaims claims, TaskScheduler scheduler, QueueStats stats,
			MatchingProperties properties, Clock clock) {
		this.stats = stats;
		this.queues = queues;
		this.claims = claims;
		this.scheduler = scheduler;
		this.properties = properties;
		this.clock = clock;
	}

	/**
	 * One sweep over the active queues; a queue found empty leaves the index unless
	 * someone joined it within the grace (a join marks its queue before its entry goes
	 * in). Then the queue stats' snapshot is read again, after the rooms it formed.
	 */
	void sweep() {
		List<ActiveQueues.Active> active = this.queues.list();
		formRooms(active);
		this.stats.refresh(active.stream().map(ActiveQueues.Active::queue).collect(Collectors.toSet()));
	}

	private void formRooms(List<ActiveQueues.Active> queues) {
		for (ActiveQueues.Active active : queues) {
			MatchQueue queue = active.queue();
			try {
				RoomClaims.Sweep swept = this.claims.form(queue, MOST_ROOMS_PER_QUEUE);
				Instant cutoff = this.clock.instant().minus(RoomClaims.ORPHAN_GRACE);
				if (swept.stillWaiting() == 0 && !active.lastJoined().isAfter(cutoff)) {
					this.queues.forgetIfIdleSince(queue, cutoff);
				}
			}
			catch (RuntimeException ex) {
				// one broken queue or a Redis hiccup must not stop the sweep; the next
				// retries
				log.warn("Sweeping {} failed", queue, ex);
			}
		}
	}

	@Override
	public void start() {
		this.task = this.scheduler.scheduleWithFixedDelay(this::sweepSafely, this.properties.sweepInterval());
	}

	private void sweepSafely() {
		try {
			sweep();
		}
		catch (RuntimeException ex) {
			log.warn("Sweep failed", ex);
		}
	}

	@Override
	public void stop() {
		ScheduledFuture<?> running = this.task;
		if (running != null) {
			running.cancel(false);
		}
		this.task = null;
	}

	@Override
	public boolean isRunning() {
		return this.task != null;
	}

}
