package io.kindling.swipe.deck;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.stream.Stream;

import io.kindling.swipe.swipe.Action;
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
	private static final int BATCH = 500;

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
		Game game = new Game(swipe.userId(), swipe.targetUserId(), (swipe.action() == Action.PASS) ? 0 : 1);
		if (!this.games.offer(game)) {
			// the queue is full (the database is far behind): this request waits for a
			// batch instead of dropping its game
			flush();
			this.games.offer(game);
		}
	}

	@PreDestroy
	void flushBeforeShutdown() {
		flush();
	}

	/**
	 * Applies the queued games; returns how many. A batch that fails is dropped and the
	 * rest stay queued for the next flush: with the database gone (at shutdown, say) each
	 * batch would otherwise wait out the pool's connection timeout in turn.
	 */
	@Scheduled(fixedDelayString = "#{" + DeckProperties.BEAN + ".scoreFlushInterval()}")
	synchronized int flush() {
		int applied = 0;
		List<Game> batch = new ArrayList<>(BATCH);
		while (this.games.drainTo(batch, BATCH) > 0) {
			if (!applyWithRetries(batch)) {
				break;
			}
			applied += batch.size();
			batch.clear();
		}
		return applied;
	}

	private boolean applyWithRetries(List<Game> batch) {
		for (int attempt = 1;; attempt++) {
			try {
				this.transactions.executeWithoutResult((tx) -> apply(batch));
				return true;
			}
			catch (PessimisticLockingFailureException ex) {
				// rolled back whole, so running it again applies each game once
				if (attempt >= 3) {
					log.warn("could not apply {} desirability updates; they are dropped", batch.size(), ex);
					return false;
				}
			}
			catch (RuntimeException ex) {
				log.warn("could not apply {} desirability updates; they are dropped", batch.size(), ex);
				return false;
			}
		}
	}

	/**
	 * One rating period, as Elo is usually run: every game of the batch is scored against
	 * the ratings read at its start (one plain read of swipers and targets), and each
	 * target moves by the sum of its games, in one UPDATE. Targets are updated in id
	 * order, so two batches (on two instances) that share targets queue instead of
	 * deadlocking; the update adds to the stored score, so a concurrent batch's change is
	 * never overwritten.
	 */
	private void apply(List<Game> batch) {
		List<Long> players = batch.stream()
			.flatMap((game) -> Stream.of(game.swiperId(), game.targetId()))
			.distinct()
			.toList();
		Map<Long, Double> ratings = new HashMap<>();
		this.jdbc.sql("SELECT user_id, desirability FROM profiles WHERE user_id IN (:players)")
			.param("players", players)
			.query((rs) -> {
				ratings.put(rs.getLong("user_id"), rs.getDouble("desirability"));
			});
		SortedMap<Long, Double> change = new TreeMap<>();
		for (Game game : batch) {
			Double swiper = ratings.get(game.swiperId());
			Double target = ratings.get(game.targetId());
			if (swiper != null && target != null) {
				change.merge(game.targetId(), change(target, swiper, game.won()), Double::sum);
			}
		}
		if (change.isEmpty()) {
			return;
		}
		StringBuilder cases = new StringBuilder();
		MapSqlParameterSource parameters = new MapSqlParameterSource("targetIds", List.copyOf(change.keySet()));
		int i = 0;
		for (Map.Entry<Long, Double> entry : change.entrySet()) {
			cases.append(" WHEN :target").append(i).append(" THEN :change").append(i);
			parameters.addValue("target" + i, entry.getKey()).addValue("change" + i, entry.getValue());
			i++;
		}
		this.batches.update("UPDATE profiles SET desirability = desirability + CASE user_id" + cases
				+ " ELSE 0 END WHERE user_id IN (:targetIds) ORDER BY user_id", parameters);
	}

	/**
	 * Elo: the target's score moves by K times the difference between the result and the
	 * result expected from the two scores.
	 */
	static double change(double target, double swiper, double won) {
		return K * (won - 1 / (1 + Math.pow(10, (swiper - target) / 400)));
	}

}
