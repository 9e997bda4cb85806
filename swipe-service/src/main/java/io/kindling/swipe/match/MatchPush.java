package io.kindling.swipe.match;

import java.time.Instant;
import java.util.List;

import io.kindling.swipe.match.Matches.MatchView;
import io.kindling.swipe.push.UserEvent;
import io.kindling.swipe.push.UserEvents;

import org.springframework.stereotype.Component;

/**
 * Tells both people of a match, on their event streams ({@code GET /api/events}), that it
 * was made or ended, once the transaction that did it commits: {@code match_created} or
 * {@code match_removed} with {@code {"match_id","user_id","matched_at"}}, where
 * {@code user_id} is the other person.
 */
@Component
public class MatchPush {

	static final String MATCH_CREATED = "match_created";

	static final String MATCH_REMOVED = "match_removed";

	private final UserEvents events;

	MatchPush(UserEvents events) {
		this.events = events;
	}

	/**
	 * A match was written in the current transaction: call it in that transaction, the
	 * first time only ({@link MatchStore.Created#isNew}).
	 */
	public void created(MatchRef match) {
		sendAfterCommit(MATCH_CREATED, match.matchId(), match.userId1(), match.userId2(), match.matchedAt());
	}

	/**
	 * The match was ended (unmatched, blocked) in the current transaction: call it in
	 * that transaction, once per match ended.
	 */
	public void removed(MatchRemoved removed) {
		sendAfterCommit(MATCH_REMOVED, removed.matchId(), removed.userId1(), removed.userId2(), removed.matchedAt());
	}

	private void sendAfterCommit(String type, long matchId, long userId1, long userId2, Instant matchedAt) {
		this.events.sendAfterCommit(List.of(new UserEvent(userId1, type, new MatchView(matchId, userId2, matchedAt)),
				new UserEvent(userId2, type, new MatchView(matchId, userId1, matchedAt))));
	}

}
