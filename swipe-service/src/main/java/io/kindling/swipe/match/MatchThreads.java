package io.kindling.swipe.match;

import java.util.Collection;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What the list of matches shows of each match's conversation; the messages feature
 * answers it.
 */
public interface MatchThreads {

	/**
	 * The thread of each of these matches of the user; a match without messages may be
	 * left out.
	 */
	Map<Long, Summary> of(long userId, Collection<Long> matchIds);

	/**
	 * @param lastMessage the newest message, null before the first
	 * @param unreadCount messages from the other person after the last one the user read
	 */
	record Summary(@Nullable MatchMessage lastMessage, long unreadCount) {

		public static final Summary NONE = new Summary(null, 0);

	}

}
