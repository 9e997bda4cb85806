package io.kindling.swipe.deck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import io.kindling.swipe.swipe.SwipeRecorded;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The Elo-style desirability score: a swipe is a game between swiper and target that the
 * target wins with a like and loses with a pass. A like from someone rated above the
 * target lifts it more than a like from someone below, and a pass costs less.
 * <p>
 * The score is a ranking signal derived from swipes, not a fact anyone was promised, so
 * it is kept off the swipe's path: games queue here and are applied every
 * {@code deck.score-flush-interval} in one transaction. A process that dies loses at most
 * that interval's nudges; the swipes themselves are already durable.
 */
@Component
class Desirability {

	private static final Logger log = LoggerFactory.getLogger(Desirability.class);

	/** Elo's K factor: the most one swipe can move a score. */
	static final double K = 16;

	/** Games applied per transaction at most. */
	private static final int BATCH = 1_000;

	private final BlockingQueue<Game> games = new ArrayBlockingQueue<>(100_000);

	private final JdbcClient jdbc;

	private final NamedParameterJdbcTemplate batches;

	private final TransactionTemplate transactions;

	Desirability(JdbcClient jdbc, NamedParameterJdbcTemplate batches, TransactionTemplate transactions) {
		this.jdbc = jdbc;
		this.batches = batches;
		this.transactions = transactions;
	}

	/** One swipe as a game: the target won it with a like, lost it with a pass. */
	record Game(long swiperId, long targetId, double won) {

	}

	@EventListener
	void on(SwipeRecorded swipe) {
		Game game = new Game(swipe.userId(), swipe.targetUserId(), "PASS".equals(swipe.action()) ? 0 : 1);
		if (!this.games.offer(game)) {
			// the queue is full (the database is far behind): this request waits for a
			// batch instead of dropping its game
			flush();
			this.games.offer(game);
		}
	}

	@Scheduled(fixedDelayString = "${kindling.swipe.deck.score-flush-interval:200ms}")
	void flushOnSchedule() {
		flush();
	}

	@PreDestroy
	void flushBeforeShutdown() {
		flush();
	}

	/** Applies every queued game; returns how many. */
	synchronized int flush() {
		int applied = 0;
		List<Game> batch = new ArrayList<>(BATCH);
		while (this.games.drainTo(batch, BATCH) > 0) {
			applyWithRetries(batch);
			applied += batch.size();
			batch.clear();
		}
		return applied;
	}

	private void applyWithRetries(List<Game> batch) {
		for (int attempt = 1;; attempt++) {
			try {
				this.transactions.executeWithoutResult((tx) -> apply(batch));
				return;
			}
			catch (PessimisticLockingFailureException ex) {
				// rolled back whole, so running it again applies each game once
				if (attempt >= 3) {
					log.warn("could not apply {} desirability updates; they are dropped", batch.size(), ex);
					return;
				}
			}
			catch (RuntimeException ex) {
				log.warn("could not apply {} desirability updates; they are dropped", batch.size(), ex);
				return;
			}
		}
	}

	/**
	 * A plain read of the swipers' scores, then the targets' rows updated in id order:
	 * two batches (on two instances) that share targets lock them in the same order, so
	 * they queue instead of deadlocking.
	 */
	private void apply(List<Game> batch) {
		Map<Long, Double> swiperScores = new HashMap<>();
		this.jdbc.sql("SELECT user_id, desirability FROM profiles WHERE user_id IN (:swiperIds)")
			.param("swiperIds", batch.stream().map(Game::swiperId).distinct().toList())
			.query((rs) -> {
				swiperScores.put(rs.getLong("user_id"), rs.getDouble("desirability"));
			});
		MapSqlParameterSource[] updates = batch.stream()
			.filter((game) -> swiperScores.containsKey(game.swiperId()))
			.sorted(Comparator.comparingLong(Game::targetId))
			.map((game) -> new MapSqlParameterSource().addValue("targetId", game.targetId())
				.addValue("k", K)
				.addValue("won", game.won())
				.addValue("swiperScore", swiperScores.get(game.swiperId())))
			.toArray(MapSqlParameterSource[]::new);
		if (updates.length > 0) {
			this.batches.batchUpdate(
					"""
							UPDATE profiles
							SET desirability = desirability + :k * (:won - 1 / (1 + POW(10, (:swiperScore - desirability) / 400)))
							WHERE user_id = :targetId
							""",
					updates);
		}
	}

}
