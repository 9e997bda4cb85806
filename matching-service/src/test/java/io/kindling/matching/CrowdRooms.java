package io.kindling.matching;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import io.kindling.matching.Crowd.Joined;
import io.kindling.matching.session.Session;
import org.jspecify.annotations.Nullable;

import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rooms a crowd's sessions sat in, as MySQL holds them once the crowd is done, and
 * the rules each keeps: nobody in two, each written once with its people, each of its
 * size (one more once backfilled) and topic.
 */
final class CrowdRooms {

	/** The crowd's sessions by key, as the participants' rows name them. */
	private final Map<String, Joined> byKey;

	final Map<Long, Conversation> conversations = new HashMap<>();

	/** Each session key's one conversation, for those in any. */
	final Map<String, Long> conversationOf = new HashMap<>();

	private CrowdRooms(Map<String, Joined> byKey) {
		this.byKey = byKey;
	}

	/**
	 * Reads the conversations these sessions sit in, checking as it reads that none sits
	 * in two and that each room's {@code ROOM_FORMED} event was written once.
	 */
	static CrowdRooms read(JdbcClient jdbc, Collection<Joined> clients) {
		Map<String, Joined> byKey = new HashMap<>();
		clients.forEach((client) -> byKey.put(Session.keyOf(client.token()), client));
		CrowdRooms rooms = new CrowdRooms(byKey);
		jdbc.sql(
				"""
						SELECT c.id, c.room_id, c.topic_id, c.size, c.room_type, c.fallback,
						  c.backfilled_at IS NOT NULL AS backfilled, p.participant_key,
						  (SELECT COUNT(*) FROM room_outbox o WHERE o.event_type = 'ROOM_FORMED' AND o.event_key = c.room_id) AS events
						FROM conversations c JOIN conversation_participants p ON p.conversation_id = c.id
						""")
			.query((rs) -> {
				String key = rs.getString("participant_key");
				if (!byKey.containsKey(key)) {
					return;
				}
				long id = rs.getLong("id");
				Long earlier = rooms.conversationOf.put(key, id);
				assertThat(earlier).as("a token in two conversations").isNull();
				assertThat(rs.getInt("events")).as("ROOM_FORMED events of a room").isEqualTo(1);
				if (!rooms.conversations.containsKey(id)) {
					rooms.conversations.put(id,
							new Conversation(id, rs.getString("room_id"), rs.getLong("topic_id"), rs.getInt("size"),
									rs.getInt("room_type"), rs.getBoolean("fallback"), rs.getBoolean("backfilled"),
									new HashSet<>()));
				}
				rooms.conversations.get(id).members().add(key);
			});
		return rooms;
	}

	/** The conversation this session sits in, if any. */
	@Nullable Conversation of(Joined client) {
		Long id = this.conversationOf.get(Session.keyOf(client.token()));
		return (id == null) ? null : this.conversations.get(id);
	}

	/**
	 * Each room of its size, of people who all named its topic and its size; each session
	 * told of a room sits in it.
	 */
	void assertSizesAndTopics() {
		for (Conversation conversation : this.conversations.values()) {
			// a client that left a room of three just formed may have had its seat taken
			// by a
			// later joiner
			assertThat(conversation.members()).as("room %s", conversation.roomId())
				.hasSize(conversation.backfilled() ? conversation.roomType() + 1 : conversation.roomType());
			assertThat(conversation.roomType()).isBetween(2, 3);
			assertThat(conversation.roomType()).isEqualTo(conversation.fallback() ? 2 : conversation.size());
			for (String member : conversation.members()) {
				Joined client = this.byKey.get(member);
				assertThat(client.topicIds()).contains(conversation.topicId());
				assertThat(client.size()).isEqualTo(conversation.size());
			}
		}
		for (Joined client : this.byKey.values()) {
			if (client.matchedRoomId() != null) {
				assertThat(of(client)).as("the room it was told of").isNotNull();
				assertThat(of(client).roomId()).isEqualTo(client.matchedRoomId());
			}
		}
	}

	record Conversation(long id, String roomId, long topicId, int size, int roomType, boolean fallback,
			boolean backfilled, Set<String> members) {

	}

}
