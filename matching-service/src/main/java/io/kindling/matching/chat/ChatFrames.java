package io.kindling.matching.chat;

import java.util.List;
import java.util.regex.Pattern;

import io.kindling.support.text.MessageText;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A room socket's frames, JSON text both ways. The server sends {@code welcome},
 * {@code message}, {@code joined}, {@code left} and {@code error}; a client sends only
 * {@code message} {@code {"type":"message","text","client_message_id"}}.
 */
final class ChatFrames {

	/** A room's message: 1 to this many characters, counted as code points. */
	static final int MAX_LENGTH = 1000;

	static final int MAX_CLIENT_MESSAGE_ID_LENGTH = 64;

	// printable ASCII without spaces, as a match message's: UUIDs, ULIDs and the like
	private static final Pattern CLIENT_MESSAGE_ID = Pattern
		.compile("[\\x21-\\x7E]{1," + MAX_CLIENT_MESSAGE_ID_LENGTH + "}");

	private final JsonMapper json;

	ChatFrames(JsonMapper json) {
		this.json = json;
	}

	/** {@code {"type":"welcome","you":"B","members":["A","B","C"]}}. */
	String welcome(String you, List<String> members) {
		ObjectNode frame = frame("welcome");
		frame.put("you", you);
		ArrayNode present = frame.putArray("members");
		members.forEach(present::add);
		return this.json.writeValueAsString(frame);
	}

	/**
	 * The entry as the member {@code to} sees it: a message carries its
	 * {@code client_message_id} to its sender only; a join or a leave has its id too, so
	 * that a client resuming with {@code ?after=} can name any frame it got.
	 */
	String entry(ChatEntry entry, String to) {
		ObjectNode frame = switch (entry.kind()) {
			case MESSAGE -> {
				ObjectNode message = frame("message");
				message.put("id", entry.id().toString());
				message.put("from", entry.member());
				message.put("text", entry.text());
				message.put("sent_at", entry.at().toString());
				if (entry.member().equals(to) && entry.clientMessageId() != null) {
					message.put("client_message_id", entry.clientMessageId());
				}
				yield message;
			}
			case JOINED -> member("joined", entry);
			case LEFT -> member("left", entry);
		};
		return this.json.writeValueAsString(frame);
	}

	/**
	 * {@code {"type":"error","status","title","detail"}}, with the
	 * {@code client_message_id} of the message it refuses, when it refuses one.
	 */
	String error(int status, String title, String detail, @Nullable String clientMessageId) {
		ObjectNode frame = frame("error");
		frame.put("status", status);
		frame.put("title", title);
		frame.put("detail", detail);
		if (clientMessageId != null) {
			frame.put("client_message_id", clientMessageId);
		}
		return this.json.writeValueAsString(frame);
	}

	/**
	 * Reads a client's frame.
	 * @throws BadFrame when it is not a well-formed message (the socket answers with an
	 * error frame and stays open)
	 */
	Outgoing read(String payload) {
		JsonNode frame;
		try {
			frame = this.json.readTree(payload);
		}
		catch (JacksonException ex) {
			throw new BadFrame(BadFrame.Kind.UNREADABLE, "A frame is one JSON object.", null);
		}
		if (frame == null || !frame.isObject()) {
			throw new BadFrame(BadFrame.Kind.UNREADABLE, "A frame is one JSON object.", null);
		}
		JsonNode clientMessageId = frame.get("client_message_id");
		String id = (clientMessageId != null && clientMessageId.isString()) ? clientMessageId.asString() : null;
		if (id != null && !CLIENT_MESSAGE_ID.matcher(id).matches()) {
			id = null;
		}
		JsonNode type = frame.get("type");
		if (type == null || !type.isString() || !type.asString().equals("message")) {
			throw new BadFrame(BadFrame.Kind.NOT_A_MESSAGE, "A client sends frames of type \"message\" only.", id);
		}
		if (id == null) {
			throw new BadFrame(BadFrame.Kind.BAD_MESSAGE,
					"client_message_id must be 1 to " + MAX_CLIENT_MESSAGE_ID_LENGTH
							+ " printable ASCII characters without spaces, one new id per message.",
					null);
		}
		JsonNode text = frame.get("text");
		if (text == null || !text.isString()) {
			throw new BadFrame(BadFrame.Kind.BAD_MESSAGE, "text is required.", id);
		}
		String checked = text.asString();
		String problem = MessageText.problem(checked, MAX_LENGTH).orElse(null);
		if (problem != null) {
			throw new BadFrame(BadFrame.Kind.BAD_MESSAGE, problem, id);
		}
		return new Outgoing(checked, id);
	}

	private ObjectNode member(String type, ChatEntry entry) {
		ObjectNode frame = frame(type);
		frame.put("id", entry.id().toString());
		frame.put("member", entry.member());
		return frame;
	}

	private ObjectNode frame(String type) {
		ObjectNode frame = this.json.createObjectNode();
		frame.put("type", type);
		return frame;
	}

	/** A message a member sends, well formed. */
	record Outgoing(String text, String clientMessageId) {

	}

	/** A client's frame that is not a well-formed message; the socket stays open. */
	static final class BadFrame extends RuntimeException {

		enum Kind {

			/** Not one JSON object. */
			UNREADABLE,

			/** An object, but not a {@code message}. */
			NOT_A_MESSAGE,

			/**
			 * A message that breaks the text rule, or without a good client message id.
			 */
			BAD_MESSAGE

		}

		private final Kind kind;

		private final @Nullable String clientMessageId;

		BadFrame(Kind kind, String detail, @Nullable String clientMessageId) {
			super(detail);
			this.kind = kind;
			this.clientMessageId = clientMessageId;
		}

		Kind kind() {
			return this.kind;
		}

		@Nullable String clientMessageId() {
			return this.clientMessageId;
		}

	}

}
