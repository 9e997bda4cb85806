package io.kindling.swipe.bloom;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.kindling.redis.bloom.BucketedBloomFilter;
import io.kindling.swipe.swipe.SwipeRecorded;
import io.kindling.swipe.swipe.SwipeRewound;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Who a user has already swiped, as a Bloom filter per user ({@code swiped_bf:{<user>}:
 * <bucket>}). MySQL's {@code swipe_history} stays the truth: a missing filter (flushed
 * Redis) is rebuilt from it, and a rewind drops the filter so that the rewound target can
 * come back. A false positive only hides a candidate from one deck; it never shows a
 * swiped one.
 */
@Component
public class SwipeHistoryFilter {

	private static final Logger log = LoggerFactory.getLogger(SwipeHistoryFilter.class);

	private final BucketedBloomFilter filter;

	private final JdbcClient jdbc;

	SwipeHistoryFilter(BucketedBloomFilter filter, JdbcClient jdbc) {
		this.filter = filter;
		this.jdbc = jdbc;
	}

	/** The candidates the user (probably) swiped already, in one filter round trip. */
	public Set<Long> swipedAmong(long userId, List<Long> candidates) {
		if (candidates.isEmpty()) {
			return Set.of();
		}
		List<String> items = new ArrayList<>(candidates.size());
		for (Long candidate : candidates) {
			items.add(candidate.toString());
		}
		boolean[] found = this.filter.mightContain(owner(userId), items);
		if (found == null) {
			rebuild(userId);
			found = this.filter.mightContain(owner(userId), items);
		}
		Set<Long> swiped = new HashSet<>();
		for (int i = 0; i < items.size(); i++) {
			if (found != null && found[i]) {
				swiped.add(candidates.get(i));
			}
		}
		return swiped;
	}

	/** Swipes in the filter (an upper bound of the user's live swipes). */
	public long swipeCount(long userId) {
		long count = this.filter.count(owner(userId));
		if (count < 0) {
			return rebuild(userId);
		}
		return count;
	}

	public long memoryBytes(long userId) {
		return this.filter.memoryBytes(owner(userId));
	}

	public String mode() {
		return this.filter.mode();
	}

	/**
	 * Rebuilds the user's filter from MySQL. It is opened (marked live) before reading,
	 * so a swipe committed meanwhile is either read here or added by its own event.
	 */
	long rebuild(long userId) {
		this.filter.open(owner(userId));
		List<String> targets = this.jdbc.sql("""
				SELECT active_target FROM swipe_history
				WHERE user_id = :userId AND active_target IS NOT NULL
				""").param("userId", userId).query(String.class).list();
		this.filter.add(owner(userId), targets);
		log.debug("rebuilt the swipe history filter of user {} from {} swipes", userId, targets.size());
		return targets.size();
	}

	@EventListener
	void on(SwipeRecorded swipe) {
		// a filter that is not live is rebuilt from MySQL, where this swipe already is
		this.filter.add(owner(swipe.userId()), List.of(String.valueOf(swipe.targetUserId())));
	}

	@EventListener
	void on(SwipeRewound rewind) {
		// a Bloom filter cannot forget one item: drop it, the next deck rebuilds it
		this.filter.drop(owner(rewind.userId()));
	}

	private static String owner(long userId) {
		return Long.toString(userId);
	}

}
