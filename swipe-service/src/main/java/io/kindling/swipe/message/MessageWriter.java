package io.kindling.swipe.message;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

import io.kindling.support.web.ProblemType;
import io.kindling.support.web.Refused;
import io.kindling.swipe.match.MatchMessage;
import io.kindling.swipe.match.MatchRef;
import io.kindling.swipe.match.MatchStore;
import io.kindling.swipe.message.MessageOutbox.Stored;
import io.kindling.swipe.message.MessageStore.Draft;
import io.kindling.swipe.message.MessageStore.Key;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Group commit for the messages of many matches: each send waits in the queue of its
 * match's writer ({@code kindling.swipe.messages.writers} of them, a match always on the
 * same one), and a writer counts all that waited while it wrote the last group against
 * their senders' rates (one Redis round trip), then stores those within them in one
 * transaction of four statements: the share locks of their matches, one
 * {@code INSERT … RETURNING} of the messages, one of their outbox rows, the commit, on a
 * connection it keeps out of autocommit while it has work ({@link HeldConnection}). An
 * idle writer takes a send the moment it comes, so a group only forms under load, where
 * it spares the database a transaction per message. Once the group committed, its writer
 * tells both people of each new message, all the group's pushes in one send
 * ({@link MessagePush}), and only then answers its sends: a {@code 201} comes after its
 * {@code message_created}.
 * <p>
 * Each send still gets its own answer: a match that is not the sender's or has ended is
 * its {@code 404} alone, a retry finds its stored message, a reused id is its
 * {@code 409}. When the group's transaction fails as a whole (a deadlock, the database
 * away), nothing of it was stored, and each of its sends is written again alone, on a
 * virtual thread of its own, to meet its own fate.
 * <p>
 * A send holds no request thread while it waits: {@link #write} answers a future that its
 * writer completes. What bounds the waiting is each writer's queue, of
 * {@link #MAX_WAITING} sends.
 */
@Component
class MessageWriter implements DisposableBean {

	/** The most messages stored in one transaction. */
	static final int MAX_GROUP = 100;

	/** The most sends waiting for one writer; past it a send is refused at once. */
	static final int MAX_WAITING = 1_000;

	/** A writer idle this long gives its connection back to the pool. */
	static final long IDLE_MILLIS = 1_000;

	private static final Logger log = LoggerFactory.getLogger(MessageWriter.class);

	private final MatchStore matches;

	private final MessageStore store;

	private final MessageOutbox outbox;

	private final MessagePush push;

	private final MessageRateLimit rateLimit;

	private final TransactionTemplate transactions;

	private final DataSource dataSource;

	private final List<BlockingQueue<Send>> queues = new ArrayList<>();

	private final List<Thread> writers = new ArrayList<>();

	private final DistributionSummary groups;

	private final Counter failedGroups;

	/** Where a send whose group failed is written alone. */
	private final ExecutorService aloneThreads = Executors.newVirtualThreadPerTaskExecutor();

	private volatile boolean stopped;

	MessageWriter(MatchStore matches, MessageStore store, MessageOutbox outbox, MessagePush push,
			MessageRateLimit rateLimit, TransactionTemplate transactions, DataSource dataSource,
			MessageProperties properties, MeterRegistry meters) {
		this.matches = matches;
		this.store = store;
		this.outbox = outbox;
		this.push = push;
		this.rateLimit = rateLimit;
		this.transactions = transactions;
		this.dataSource = dataSource;
		this.groups = DistributionSummary.builder("kindling.swipe.messages.group")
			.description("Messages stored per transaction by the group commit")
			.register(meters);
		this.failedGroups = Counter.builder("kindling.swipe.messages.group.failures")
			.description("Groups whose transaction failed as a whole, their sends then written one by one")
			.register(meters);
		for (int i = 0; i < properties.writers(); i++) {
			BlockingQueue<Send> queue = new LinkedBlockingQueue<>(MAX_WAITING);
			this.queues.add(queue);
			Thread writer = Thread.ofPlatform().name("message-writer-" + i).daemon().unstarted(() -> drain(queue));
			this.writers.add(writer);
		}
		Gauge.builder("kindling.swipe.messages.waiting", this, MessageWriter::waiting)
			.description("Sends waiting for a message writer")
			.register(meters);
		this.writers.forEach(Thread::start);
	}

	/**
	 * Stores the draft in the next group of its match's writer, or alone, in a
	 * transaction of its own, when that group failed as a whole (on a virtual thread) or
	 * the writers have stopped (on the caller's thread); tells both people of it once
	 * stored (not for a retry). Either way it is counted against its sender's rate first,
	 * once.
	 * @return what was stored (or found stored, for a retry), and the match; or failed
	 * with {@code rate-limited}, {@code no-such-match} or
	 * {@code client-message-id-reused}
	 * @throws Refused {@code overloaded} when the writer has {@link #MAX_WAITING} sends
	 * waiting already
	 */
	CompletableFuture<Written> write(Draft draft) {
		Send send = new Send(draft, this.outbox.currentTrace(), new AtomicBoolean(), new CompletableFuture<>());
		if (!inGroup(send)) {
			return CompletableFuture.completedFuture(alone(send));
		}
		return send.answer()
			.thenCompose(
					(written) -> written.map(CompletableFuture::completedFuture).orElseGet(() -> aloneLater(send)));
	}

	/**
	 * The send written alone on a virtual thread of its own; or, once a writer outlived
	 * its wait at shutdown and those threads are closed, on the thread that found its
	 * group failed.
	 */
	private CompletableFuture<Written> aloneLater(Send send) {
		try {
			return CompletableFuture.supplyAsync(() -> alone(send), this.aloneThreads);
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.supplyAsync(() -> alone(send), Runnable::run);
		}
	}

	/**
	 * Queues the send for its match's writer.
	 * @return false when the writers have stopped
	 */
	private boolean inGroup(Send send) {
		if (this.stopped) {
			return false;
		}
		BlockingQueue<Send> queue = this.queues.get(writerOf(send.draft().matchId()));
		if (!queue.offer(send)) {
			// answered with the overload limit's Retry-After
			throw ProblemType.OVERLOADED.refused("this instance has " + MAX_WAITING
					+ " messages waiting to be stored already; nothing was stored, so the same message may be "
					+ "sent again after the wait Retry-After says");
		}
		// its writer may have stopped before it came: nobody else will take it
		return !(this.stopped && queue.remove(send));
	}

	/**
	 * The send as a group of its own: the same statements, in a transaction of its own.
	 */
	private Written alone(Send send) {
		if (!send.counted().getAndSet(true)) {
			this.rateLimit.count(send.draft().fromUserId());
		}
		Answer answer = Objects.requireNonNull(this.transactions.execute((tx) -> store(List.of(send)).get(0)));
		if (answer.refused() != null) {
			throw answer.refused();
		}
		Written written = Objects.requireNonNull(answer.written());
		if (written.created()) {
			this.push.created(List.of(written));
		}
		return written;
	}

	/**
	 * The writer of a match's messages: always the same one, so they are stored in order.
	 */
	int writerOf(long matchId) {
		return Math.floorMod(Long.hashCode(matchId), this.queues.size());
	}

	/** Sends waiting now, across the writers. */
	int waiting() {
		return this.queues.stream().mapToInt(BlockingQueue::size).sum();
	}

	private void drain(BlockingQueue<Send> queue) {
		HeldConnection connection = new HeldConnection(this.dataSource, this.transactions);
		try {
			writeUntilInterrupted(queue, connection);
		}
		finally {
			connection.release();
		}
		queue.forEach((send) -> send.answer().complete(Optional.empty()));
	}

	private void writeUntilInterrupted(BlockingQueue<Send> queue, HeldConnection connection) {
		List<Send> group = new ArrayList<>();
		while (!Thread.currentThread().isInterrupted()) {
			try {
				group.add(next(queue, connection));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			queue.drainTo(group, MAX_GROUP - 1);
			try {
				writeGroup(group, connection);
			}
			catch (RuntimeException ex) {
				// the writer must outlive any one group: those waiting are written alone
				log.warn("A group of {} messages could not be answered; each is written alone", group.size(), ex);
				group.forEach((send) -> send.answer().complete(Optional.empty()));
			}
			group.clear();
		}
	}

	/** The next send, the connection given back while none comes for a while. */
	private static Send next(BlockingQueue<Send> queue, HeldConnection connection) throws InterruptedException {
		Send next = queue.poll(IDLE_MILLIS, TimeUnit.MILLISECONDS);
		if (next != null) {
			return next;
		}
		connection.release();
		return queue.take();
	}

	private void writeGroup(List<Send> sent, HeldConnection connection) {
		List<Send> group = withinRate(sent);
		if (group.isEmpty()) {
			return;
		}
		this.groups.record(group.size());
		List<Answer> answers = new ArrayList<>(group.size());
		try {
			connection.inTransaction((tx) -> answers.addAll(store(group)));
		}
		catch (RuntimeException ex) {
			log.debug("A group of {} messages failed as a whole; each is written alone", group.size(), ex);
			this.failedGroups.increment();
			group.forEach((send) -> send.answer().complete(Optional.empty()));
			return;
		}
		pushCreated(answers);
		// once committed: the refusals stand as well, each read with its lock
		for (Answer answer : answers) {
			if (answer.refused() != null) {
				answer.send().answer().completeExceptionally(answer.refused());
			}
			else {
				answer.send().answer().complete(Optional.of(Objects.requireNonNull(answer.written())));
			}
		}
	}

	/**
	 * Counts the sends against their senders' rates and answers those past them.
	 * @return the others
	 */
	private List<Send> withinRate(List<Send> sent) {
		List<@Nullable Refused> refusals = this.rateLimit
			.countAll(sent.stream().map((send) -> send.draft().fromUserId()).toList());
		List<Send> within = new ArrayList<>(sent.size());
		for (int i = 0; i < sent.size(); i++) {
			Send send = sent.get(i);
			send.counted().set(true);
			Refused refused = refusals.get(i);
			if (refused != null) {
				send.answer().completeExceptionally(refused);
			}
			else {
				within.add(send);
			}
		}
		return within;
	}

	/**
	 * Tells of the group's new messages. Redis may fail, the messages are stored all the
	 * same: their sends must still be answered, and not written again.
	 */
	private void pushCreated(List<Answer> answers) {
		List<Written> created = new ArrayList<>(answers.size());
		for (Answer answer : answers) {
			if (answer.written() != null && answer.written().created()) {
				created.add(answer.written());
			}
		}
		if (created.isEmpty()) {
			return;
		}
		try {
			this.push.created(created);
		}
		catch (RuntimeException ex) {
			log.warn("Could not tell of {} stored messages", created.size(), ex);
		}
	}

	/**
	 * The group's messages and outbox rows, in the transaction; an answer for each send.
	 */
	private List<Answer> store(List<Send> group) {
		LinkedHashSet<Long> matchIds = new LinkedHashSet<>();
		group.forEach((send) -> matchIds.add(send.draft().matchId()));
		Map<Long, MatchRef> live = this.matches.lockLive(matchIds);
		List<Answer> answers = new ArrayList<>(group.size());
		List<Send> toStore = new ArrayList<>(group.size());
		for (Send send : group) {
			MatchRef match = live.get(send.draft().matchId());
			if (match == null || !match.has(send.draft().fromUserId())) {
				answers.add(Answer.refused(send, Messages.noSuchMatch(send.draft().matchId())));
			}
			else {
				toStore.add(send);
			}
		}
		if (toStore.isEmpty()) {
			return answers;
		}
		// the rows this insert stored, each claimed by the first send of its id
		Map<Key, MatchMessage> unclaimed = new HashMap<>();
		for (MatchMessage message : this.store.insertAll(toStore.stream().map(Send::draft).toList())) {
			unclaimed.put(Key.of(message), message);
		}
		List<Stored> events = new ArrayList<>(unclaimed.size());
		for (Send send : toStore) {
			Draft draft = send.draft();
			MatchRef match = live.get(draft.matchId());
			MatchMessage mine = unclaimed.remove(draft.key());
			if (mine != null) {
				events.add(new Stored(mine, match, send.traceparent()));
				answers.add(Answer.written(send, new Written(mine, true, match)));
				continue;
			}
			// a retry, of a send before this group or of one earlier in it
			MatchMessage earlier = this.store
				.byClientMessageId(draft.matchId(), draft.fromUserId(), draft.clientMessageId())
				.orElseThrow(() -> new IllegalStateException("a message skipped as a duplicate is not there"));
			answers.add(earlier.text().equals(draft.text()) ? Answer.written(send, new Written(earlier, false, match))
					: Answer.refused(send, clientMessageIdReused(draft.clientMessageId())));
		}
		this.outbox.messagesSent(events);
		return answers;
	}

	private static Refused clientMessageIdReused(String clientMessageId) {
		return MessageRefusals.CLIENT_MESSAGE_ID_REUSED
			.refused("client_message_id " + clientMessageId + " was sent in this match with another text.");
	}

	/** Stops the writers once the web server stopped taking requests. */
	@Override
	public void destroy() throws InterruptedException {
		this.stopped = true;
		this.writers.forEach(Thread::interrupt);
		for (Thread writer : this.writers) {
			writer.join(5_000);
		}
		this.aloneThreads.close();
	}

	/**
	 * A message as a group wrote it.
	 *
	 * @param created false for a retry that found the message stored
	 */
	record Written(MatchMessage message, boolean created, MatchRef match) {

	}

	/**
	 * @param traceparent the trace context of the send's request, for its outbox row
	 * @param counted whether it was counted against its sender's rate, so that a send
	 * written alone after its group failed is not counted twice
	 */
	private record Send(Draft draft, @Nullable String traceparent, AtomicBoolean counted,
			CompletableFuture<Optional<Written>> answer) {

	}

	private record Answer(Send send, @Nullable Written written, @Nullable Refused refused) {

		static Answer written(Send send, Written written) {
			return new Answer(send, written, null);
		}

		static Answer refused(Send send, Refused refused) {
			return new Answer(send, null, refused);
		}

	}

}
