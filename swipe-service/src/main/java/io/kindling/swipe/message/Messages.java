package io.kindling.swipe.message;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import io.kindling.support.paging.Cursor;
import io.kindling.support.text.MessageText;
import io.kindling.support.web.Refused;
import io.kindling.swipe.match.MatchMessage;
import io.kindling.swipe.match.MatchRef;
import io.kindling.swipe.match.MatchRefusals;
import io.kindling.swipe.match.MatchStore;
import io.kindling.swipe.message.MessageStore.Draft;
import io.kindling.swipe.message.MessageWriter.Written;
import io.kindling.swipe.paging.PagingRefusals;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Sends, pages and reads a match's messages. Only the match's two people see its thread,
 * and only while the match stands: an unmatch, a block or a ban ends it for both.
 */
@Service
class Messages {

	static final int MAX_LENGTH = 2000;

	static final int PAGE_SIZE = 20;

	static final int MAX_PAGE_SIZE = 100;

	static final int MAX_CLIENT_MESSAGE_ID_LENGTH = 64;

	// printable ASCII without spaces, as an Idempotency-Key: UUIDs, ULIDs and the like
	private static final Pattern CLIENT_MESSAGE_ID = Pattern
		.compile("[\\x21-\\x7E]{1," + MAX_CLIENT_MESSAGE_ID_LENGTH + "}");

	private final MatchStore matches;

	private final MessageStore store;

	private final MessageWriter writer;

	private final MessagePush push;

	private final TransactionTemplate transactions;

	private final Clock clock;

	Messages(MatchStore matches, MessageStore store, MessageWriter writer, MessagePush push,
			TransactionTemplate transactions, Clock clock) {
		this.matches = matches;
		this.store = store;
		this.writer = writer;
		this.push = push;
		this.transactions = transactions;
		this.clock = clock;
	}

	/**
	 * Counts the message against its sender's rate, then stores it with its
	 * {@code MESSAGE_SENT} row in one transaction, under a share lock of the match, so a
	 * message is never stored after the match ended: in a group with others waiting at
	 * the same moment, or alone when that group failed ({@link MessageWriter}). Both
	 * people are told once it committed and its connection went back to the pool (the
	 * pushes are Redis round trips that need no database). A retry (the same
	 * {@code client_message_id} and text) stores and tells nothing, and answers the
	 * stored message.
	 * @return the message once stored, the caller's thread free meanwhile
	 * @throws Refused at once, before anything is queued: {@code bad-message}, or
	 * {@code overloaded} when too many sends wait for the writer already
	 */
	CompletableFuture<Sent> send(long userId, long matchId, @Nullable String text, @Nullable String clientMessageId) {
		if (text == null) {
			throw MessageRefusals.BAD_MESSAGE.refused("text is required.");
		}
		MessageText.problem(text, MAX_LENGTH).ifPresent((problem) -> {
			throw MessageRefusals.BAD_MESSAGE.refused(problem);
		});
		if (clientMessageId == null || !CLIENT_MESSAGE_ID.matcher(clientMessageId).matches()) {
			throw MessageRefusals.BAD_MESSAGE.refused("client_message_id must be 1 to " + MAX_CLIENT_MESSAGE_ID_LENGTH
					+ " printable ASCII characters without spaces, one new id per message (a UUID, say).");
		}
		Draft draft = new Draft(matchId, userId, text, clientMessageId,
				this.clock.instant().truncatedTo(ChronoUnit.MICROS));
		return this.writer.write(draft).thenApply((written) -> new Sent(written.message(), written.created()));
	}

	/** The match's messages, newest first, keyset-paged on the message id. */
	MessagePage page(long userId, long matchId, @Nullable String cursor, int limit) {
		Cursor after = Cursor.parse(cursor, PagingRefusals.BAD_CURSOR);
		this.matches.live(matchId, userId).orElseThrow(() -> noSuchMatch(matchId));
		List<MatchMessage> rows = this.store.before(matchId, after.id(), limit + 1);
		if (rows.size() <= limit) {
			return new MessagePage(rows, null);
		}
		MatchMessage last = rows.get(limit - 1);
		return new MessagePage(List.copyOf(rows.subList(0, limit)),
				new Cursor(last.sentAt(), last.messageId()).encode());
	}

	/**
	 * Marks the match's messages up to this one read by the user; both people's streams
	 * hear of it when the mark moved (never back).
	 */
	void read(long userId, long matchId, long messageId) {
		this.transactions.executeWithoutResult((tx) -> {
			MatchRef match = this.matches.lockLive(matchId, userId).orElseThrow(() -> noSuchMatch(matchId));
			if (!this.store.exists(matchId, messageId)) {
				throw MessageRefusals.NO_SUCH_MESSAGE.refused("This match has no message " + messageId + ".");
			}
			if (this.store.markRead(matchId, userId, messageId)) {
				this.push.read(match, userId, messageId);
			}
		});
	}

	/** Someone else's match is as absent as a missing one, and so is an ended one. */
	static Refused noSuchMatch(long matchId) {
		return MatchRefusals.NO_SUCH_MATCH.refused("You have no match " + matchId + ".");
	}

	/**
	 * @param created false for a retry that found the message stored
	 */
	record Sent(MatchMessage message, boolean created) {

	}

	record MessagePage(List<MatchMessage> messages, @Nullable String nextCursor) {

	}

}
