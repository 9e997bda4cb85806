package io.kindling.swipe.message;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import io.kindling.outbox.SqlTime;
import io.kindling.swipe.match.MatchMessage;
import io.kindling.swipe.match.MatchThreads.Summary;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code messages} of each match and the {@code message_reads} of each of its two
 * people. Both are keyed by match first, so a conversation's rows sit together (and would
 * on one shard).
 */
@Repository
class MessageStore {

	private static final String COLUMNS = "message_id, match_id, from_user_id, text, client_message_id, sent_at";

	private final JdbcClient jdbc;

	private final JdbcTemplate template;

	MessageStore(JdbcClient jdbc, JdbcTemplate template) {
		this.jdbc = jdbc;
		this.template = template;
	}

	/** A message to store: what a send asked for. */
	record Draft(long matchId, long fromUserId, String text, String clientMessageId, Instant sentAt) {

		Key key() {
			return new Key(this.matchId, this.fromUserId, this.clientMessageId);
		}

	}

	/**
	 * What makes a message one: its match, its sender and their {@code client_message_id}
	 * (the unique key).
	 */
	record Key(long matchId, long fromUserId, String clientMessageId) {

		static Key of(MatchMessage message) {
			return new Key(message.matchId(), message.fromUserId(), message.clientMessageId());
		}

	}

	/**
	 * Stores the messages, in one statement, in the order given, so their ids rise in
	 * that order; a message's sender stores it once under its {@code client_message_id}
	 * in its match (the unique key, which {@code IGNORE} lets skip a duplicate, the text
	 * having been checked to fit its column). {@code RETURNING} names the rows it stored:
	 * a draft whose sender had stored one under its {@code client_message_id} already,
	 * earlier or earlier in this list, is not among them.
	 */
	List<MatchMessage> insertAll(List<Draft> drafts) {
		StringBuilder sql = new StringBuilder(
				"INSERT IGNORE INTO messages (match_id, from_user_id, client_message_id, text, sent_at) VALUES ");
		for (int i = 0; i < drafts.size(); i++) {
			sql.append((i == 0) ? "" : ", ").append("(?, ?, ?, ?, FROM_UNIXTIME(?))");
		}
		sql.append(" RETURNING message_id, match_id, from_user_id, client_message_id");
		// execute(), not executeQuery(): Connector/J refuses an INSERT there, RETURNING
		// or not
		return Objects.requireNonNull(this.template.execute(sql.toString(), (PreparedStatement insert) -> {
			int column = 0;
			for (Draft draft : drafts) {
				insert.setLong(++column, draft.matchId());
				insert.setLong(++column, draft.fromUserId());
				insert.setString(++column, draft.clientMessageId());
				insert.setString(++column, draft.text());
				insert.setBigDecimal(++column, SqlTime.epochSeconds(draft.sentAt()));
			}
			insert.execute();
			// a key twice in the list stores its first draft
			Map<Key, Draft> byKey = new HashMap<>();
			drafts.forEach((draft) -> byKey.putIfAbsent(draft.key(), draft));
			List<MatchMessage> stored = new ArrayList<>(drafts.size());
			try (ResultSet rows = insert.getResultSet()) {
				while (rows.next()) {
					long matchId = rows.getLong("match_id");
					long fromUserId = rows.getLong("from_user_id");
					String clientMessageId = rows.getString("client_message_id");
					Draft draft = Objects.requireNonNull(byKey.get(new Key(matchId, fromUserId, clientMessageId)));
					stored.add(new MatchMessage(rows.getLong("message_id"), matchId, fromUserId, draft.text(),
							clientMessageId, draft.sentAt()));
				}
			}
			return stored;
		}));
	}

	/**
	 * The message the sender stored under this id, with a locking read: it sees a row
	 * that another transaction committed after this one's snapshot began.
	 */
	Optional<MatchMessage> byClientMessageId(long matchId, long fromUserId, String clientMessageId) {
		return this.jdbc.sql("SELECT " + COLUMNS + """
				 FROM messages
				WHERE match_id = :matchId AND from_user_id = :fromUserId AND client_message_id = :clientMessageId
				LOCK IN SHARE MODE
				""")
			.param("matchId", matchId)
			.param("fromUserId", fromUserId)
			.param("clientMessageId", clientMessageId)
			.query(MessageStore::message)
			.optional();
	}

	/** Up to {@code fetch} messages of the match before the id, newest first. */
	List<MatchMessage> before(long matchId, long beforeMessageId, int fetch) {
		return this.jdbc.sql("SELECT " + COLUMNS + """
				 FROM messages
				WHERE match_id = :matchId AND message_id < :before
				ORDER BY message_id DESC
				LIMIT :fetch
				""")
			.param("matchId", matchId)
			.param("before", beforeMessageId)
			.param("fetch", fetch)
			.query(MessageStore::message)
			.list();
	}

	boolean exists(long matchId, long messageId) {
		return this.jdbc.sql("SELECT COUNT(*) FROM messages WHERE match_id = :matchId AND message_id = :messageId")
			.param("matchId", matchId)
			.param("messageId", messageId)
			.query(Long.class)
			.single() > 0;
	}

	/**
	 * Moves the user's read mark in the match forward to the message, never back.
	 * @return whether it moved
	 */
	boolean markRead(long matchId, long userId, long messageId) {
		if (moveReadMark(matchId, userId, messageId)) {
			return true;
		}
		int inserted = this.jdbc.sql("""
				INSERT IGNORE INTO message_reads (match_id, user_id, last_read_message_id)
				VALUES (:matchId, :userId, :messageId)
				""").param("matchId", matchId).param("userId", userId).param("messageId", messageId).update();
		// 0: the row was there, perhaps made a moment ago by another read of this user,
		// whose mark may be lower than this one
		return inserted == 1 || moveReadMark(matchId, userId, messageId);
	}

	private boolean moveReadMark(long matchId, long userId, long messageId) {
		return this.jdbc.sql("""
				UPDATE message_reads SET last_read_message_id = :messageId
				WHERE match_id = :matchId AND user_id = :userId AND last_read_message_id < :messageId
				""").param("matchId", matchId).param("userId", userId).param("messageId", messageId).update() == 1;
	}

	/**
	 * For each match that has messages: its newest one, and how many of the other
	 * person's messages came after the user's read mark. Two statements for a whole page
	 * of matches, each walking the primary key of the matches it names.
	 */
	Map<Long, Summary> summaries(long userId, Collection<Long> matchIds) {
		if (matchIds.isEmpty()) {
			return Map.of();
		}
		Map<Long, Long> unread = new HashMap<>();
		this.jdbc.sql("""
				SELECT m.match_id, COUNT(*) AS unread FROM messages m
				LEFT JOIN message_reads r ON r.match_id = m.match_id AND r.user_id = :userId
				WHERE m.match_id IN (:matchIds) AND m.from_user_id <> :userId
				  AND m.message_id > COALESCE(r.last_read_message_id, 0)
				GROUP BY m.match_id
				""").param("userId", userId).param("matchIds", matchIds).query((rs) -> {
			unread.put(rs.getLong("match_id"), rs.getLong("unread"));
		});
		Map<Long, Summary> summaries = new HashMap<>();
		this.jdbc.sql("""
				SELECT m.message_id, m.match_id, m.from_user_id, m.text, m.client_message_id, m.sent_at
				FROM messages m
				JOIN (SELECT match_id, MAX(message_id) AS last_id FROM messages
				      WHERE match_id IN (:matchIds) GROUP BY match_id) newest
				  ON m.match_id = newest.match_id AND m.message_id = newest.last_id
				""")
			.param("matchIds", matchIds)
			.query(MessageStore::message)
			.list()
			.forEach((last) -> summaries.put(last.matchId(),
					new Summary(last, unread.getOrDefault(last.matchId(), 0L))));
		return summaries;
	}

	private static MatchMessage message(ResultSet rs, int row) throws SQLException {
		return new MatchMessage(rs.getLong("message_id"), rs.getLong("match_id"), rs.getLong("from_user_id"),
				rs.getString("text"), rs.getString("client_message_id"), rs.getTimestamp("sent_at").toInstant());
	}

}
