package io.kindling.swipe.message;

import java.util.Collection;
import java.util.Map;

import io.kindling.swipe.match.MatchThreads;

import org.springframework.stereotype.Component;

/** The list of matches' view of each conversation, read from the messages. */
@Component
class MatchThreadsFromMessages implements MatchThreads {

	private final MessageStore store;

	MatchThreadsFromMessages(MessageStore store) {
		this.store = store;
	}

	@Override
	public Map<Long, Summary> of(long userId, Collection<Long> matchIds) {
		return this.store.summaries(userId, matchIds);
	}

}
