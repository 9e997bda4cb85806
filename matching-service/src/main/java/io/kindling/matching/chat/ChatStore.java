package io.kindling.matching.chat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.kindling.redis.LuaScript;
import io.kindling.redis.StreamEntryId;
import io.kindling.redis.TokenBucket;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * A room's conversation in Redis, every key of it in the room's slot (tag
 * {@code {<conversationId>}}): the stream of its entries (messages, joins, leaves) in the
 * one order everyone sees, its members by alias, the client message ids each member used,
 * and each member's rate bucket. Each change appends to the stream and publishes the
 * entry on the room's shard channel in one script, so the instances holding the room's
 * sockets hear every entry in stream order; an instance that missed some reads them from
 * the stream.
 */
@Component
class ChatStore {

	static final String PREFIX = "matching:chat";

	private static final LuaScript<List> SEND = LuaScript.load("chat_send", List.class);

	private static final LuaScript<List> MEMBER = LuaScript.load("chat_member", List.class);

	private final StringRedisTemplate redis;

	private final JsonMapper json;

	private final ChatProperties properties;

	private final TokenBucket rate;

	ChatStore(StringRedisTemplate redis, JsonMapper json, ChatProperties properties) {
		this.redis = redis;
		this.json = json;
		this.properties = properties;
		this.rate = new TokenBucket(redis, properties.messagesPerSecond(), properties.burst());
	}

	/** The room's stream of entries. */
	static String stream(long conversationId) {
		return PREFIX + ":" + tag(conversationId);
	}

	/** The room's members: alias to {@code in} or {@code left}. */
	static String members(long conversationId) {
		return PREFIX + "-members:" + tag(conversationId);
	}

	static String sent(long conversationId) {
		return PREFIX + "-sent:" + tag(conversationId);
	}

	static String rate(long conversationId, String alias) {
		return PREFIX + "-rate:" + tag(conversationId) + ":" + alias;
	}

	/** The shard channel the room's entries are published on, in the room's slot. */
	static String channel(long conversationId) {
		return PREFIX + "-channel:" + tag(conversationId);
	}

	private static String tag(long conversationId) {
		return "{" + conversationId + "}";
	}

	/**
	 * Sends a member's message, unless the member is past their rate or no longer in the
	 * room.
	 * @param expireAt when the room's keys go: its life's end plus the grace
	 */
	Sent send(long conversationId, String alias, String text, String clientMessageId, Instant now, Instant expireAt) {
		TokenBucket.Taken taken = this.rate.take(rate(conversationId, alias), now.toEpochMilli());
		if (!taken.taken()) {
			return new Sent.RateLimited(taken.retryAfter());
		}
		List<?> answer = SEND.run(this.redis,
				List.of(stream(conversationId), members(conversationId), sent(conversationId)), alias, text,
				clientMessageId, String.valueOf(now.toEpochMilli()), String.valueOf(this.properties.history()),
				String.valueOf(expireAt.toEpochMilli()), channel(conversationId));
		return switch ((String) answer.get(0)) {
			case "sent" -> new Sent.Appended(StreamEntryId.of((String) answer.get(1)));
			case "duplicate" -> new Sent.Duplicate(StreamEntryId.of((String) answer.get(1)));
			default -> new Sent.NotMember();
		};
	}

	/**
	 * Marks the member in without telling anyone: a member of the room since it formed. A
	 * member who left stays out.
	 */
	void seat(long conversationId, String alias, Instant now, Instant expireAt) {
		member(conversationId, alias, "seat", now, expireAt);
	}

	/** A member seated after the room formed: {@code joined}, unless in already. */
	Optional<StreamEntryId> join(long conversationId, String alias, Instant now, Instant expireAt) {
		return member(conversationId, alias, "join", now, expireAt);
	}

	/** {@code left}, unless the member left already; they send nothing more. */
	Optional<StreamEntryId> leave(long conversationId, String alias, Instant now, Instant expireAt) {
		return member(conversationId, alias, "leave", now, expireAt);
	}

	private Optional<StreamEntryId> member(long conversationId, String alias, String change, Instant now,
			Instant expireAt) {
		List<?> answer = MEMBER.run(this.redis, List.of(stream(conversationId), members(conversationId)), alias, change,
				String.valueOf(now.toEpochMilli()), String.valueOf(this.properties.history()),
				String.valueOf(expireAt.toEpochMilli()), channel(conversationId));
		return "changed".equals(answer.get(0)) ? Optional.of(StreamEntryId.of((String) answer.get(1)))
				: Optional.empty();
	}

	/**
	 * Brings the expiry of the room's stream, members and client message ids to this
	 * moment: the room ended, its messages stay for the grace.
	 */
	void expireAt(long conversationId, Instant at) {
		for (String key : List.of(stream(conversationId), members(conversationId), sent(conversationId))) {
			this.redis.expireAt(key, at);
		}
	}

	/** A member's last messages in the room, newest first, up to {@code count}. */
	List<ChatEntry> lastMessagesOf(long conversationId, String alias, int count) {
		List<MapRecord<String, Object, Object>> newestFirst = this.redis.opsForStream()
			.reverseRange(stream(conversationId), Range.unbounded());
		return entries(newestFirst).stream()
			.filter((entry) -> entry.kind() == ChatEntry.Kind.MESSAGE && entry.member().equals(alias))
			.limit(count)
			.toList();
	}

	/** The aliases of the members in the room now, in seat order. */
	List<String> present(long conversationId) {
		Map<Object, Object> members = this.redis.opsForHash().entries(members(conversationId));
		return members.entrySet()
			.stream()
			.filter((member) -> "in".equals(member.getValue()))
			.map((member) -> (String) member.getKey())
			.sorted()
			.toList();
	}

	/** The room's last {@code count} entries, oldest first. */
	List<ChatEntry> last(long conversationId, int count) {
		List<MapRecord<String, Object, Object>> newestFirst = this.redis.opsForStream()
			.reverseRange(stream(conversationId), Range.unbounded(), Limit.limit().count(count));
		List<ChatEntry> entries = new ArrayList<>(entries(newestFirst));
		Collections.reverse(entries);
		return entries;
	}

	/** Up to {@code count} of the room's entries after the id, oldest first. */
	List<ChatEntry> after(long conversationId, StreamEntryId after, int count) {
		return entries(this.redis.opsForStream()
			.range(stream(conversationId), Range.rightUnbounded(Range.Bound.exclusive(after.toString())),
					Limit.limit().count(count)));
	}

	/**
	 * The id of the room's last entry; {@link StreamEntryId#NONE} for an empty stream.
	 */
	StreamEntryId lastId(long conversationId) {
		List<ChatEntry> last = last(conversationId, 1);
		return last.isEmpty() ? StreamEntryId.NONE : last.get(0).id();
	}

	/**
	 * An entry as published on the room's channel, with the id of the entry before it.
	 */
	Published published(String payload) {
		JsonNode entry = this.json.readTree(payload);
		return new Published(StreamEntryId.of(entry.get("previous").asString()),
				entry(entry.get("id").asString(), (field) -> {
					JsonNode value = entry.get(field);
					return (value != null && value.isString()) ? value.asString() : null;
				}));
	}

	private List<ChatEntry> entries(@Nullable List<MapRecord<String, Object, Object>> records) {
		if (records == null) {
			return List.of();
		}
		return records.stream()
			.map((record) -> entry(record.getId().getValue(), (field) -> (String) record.getValue().get(field)))
			.toList();
	}

	private static ChatEntry entry(String id, java.util.function.Function<String, @Nullable String> field) {
		return new ChatEntry(StreamEntryId.of(id), ChatEntry.Kind.valueOf(field.apply("kind")), field.apply("member"),
				field.apply("text"), field.apply("cmid"), Instant.ofEpochMilli(Long.parseLong(field.apply("at"))));
	}

	/** What became of a message sent. */
	sealed interface Sent {

		/** In the stream, with this id, and published. */
		record Appended(StreamEntryId id) implements Sent {
		}

		/** The member sent this client message id before; nothing was appended. */
		record Duplicate(StreamEntryId first) implements Sent {
		}

		/** The member left the room (perhaps on another instance a moment ago). */
		record NotMember() implements Sent {
		}

		/** Past the member's rate; nothing was appended. */
		record RateLimited(Duration retryAfter) implements Sent {
		}

	}

	/**
	 * @param previous the id of the entry before it in the stream
	 * ({@link StreamEntryId#NONE} for the first): a socket that got that one last can be
	 * sent this one at once
	 */
	record Published(StreamEntryId previous, ChatEntry entry) {

	}

}
