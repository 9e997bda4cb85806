package io.kindling.matching.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import io.kindling.redis.LuaScript;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations;
import org.springframework.stereotype.Component;

/** The claim store on Redis: each call one script (or one read) on one slot. */
@Component
class RedisClaimStore implements ClaimStore {

	private final LuaScript<Long> removeEntry = LuaScript.load("remove_entry", Long.class);

	private final StringRedisTemplate redis;

	private final ClaimWaitingScript claimWaiting;

	private final FormRoomScript formRoom;

	private final SwapClaimScript swapClaims;

	private final ConfirmRoomScript confirmRoom;

	private final RestoreRoomScript restoreRoom;

	private final ActiveQueues activeQueues;

	private final OfferSeatScript offerSeat;

	private final TakeSeatScript takeSeat;

	RedisClaimStore(StringRedisTemplate redis, ClaimWaitingScript claimWaiting, FormRoomScript formRoom,
			SwapClaimScript swapClaims, ConfirmRoomScript confirmRoom, RestoreRoomScript restoreRoom,
			ActiveQueues activeQueues, OfferSeatScript offerSeat, TakeSeatScript takeSeat) {
		this.offerSeat = offerSeat;
		this.takeSeat = takeSeat;
		this.redis = redis;
		this.claimWaiting = claimWaiting;
		this.formRoom = formRoom;
		this.swapClaims = swapClaims;
		this.confirmRoom = confirmRoom;
		this.restoreRoom = restoreRoom;
		this.activeQueues = activeQueues;
	}

	@Override
	public TokenState read(String token) {
		Map<String, String> fields = this.redis.<String, String>opsForHash().entries(RedisKeys.claim(token));
		return TokenState.parse(fields);
	}

	@Override
	public ClaimWaitingScript.Outcome claimWaiting(String token, TokenState.Waiting waiting) {
		return this.claimWaiting.claim(token, waiting);
	}

	@Override
	public FormRoomScript.Result enqueueAndForm(MatchQueue queue, QueueEntry entry, String recentPartners,
			Instant now) {
		return this.formRoom.join(queue, entry, recentPartners, now);
	}

	@Override
	public void enqueue(MatchQueue fallbackQueue, QueueEntry entry, String recentPartners) {
		this.formRoom.enqueue(fallbackQueue, entry, recentPartners);
	}

	@Override
	public FormRoomScript.Result form(MatchQueue queue, Instant now, Optional<QueueEntry> lookFor) {
		return this.formRoom.form(queue, now, lookFor);
	}

	@Override
	public FormRoomScript.Place find(MatchQueue queue, QueueEntry entry, Instant now) {
		return this.formRoom.find(queue, entry, now);
	}

	@Override
	public List<Boolean> swap(List<SwapClaimScript.Swap> swaps) {
		return this.swapClaims.swapAll(swaps);
	}

	@Override
	public List<Boolean> confirm(PoppedRoom room, long conversationId, Duration roomTtl, Duration cooldown,
			Instant now) {
		return this.confirmRoom.confirm(room, conversationId, roomTtl, cooldown, now);
	}

	@Override
	public long restore(PoppedRoom room, Set<QueueEntry> back) {
		return this.restoreRoom.restore(room, back);
	}

	@Override
	public void removeEntry(MatchQueue queue, QueueEntry entry) {
		this.removeEntry.run(this.redis, List.of(queue.key(), queue.entryPartnersKey()), entry.member());
	}

	@Override
	public void markActive(MatchQueue queue, Instant now) {
		this.activeQueues.touch(queue, now);
	}

	@Override
	public List<MatchQueue> activeQueues() {
		return this.activeQueues.list().stream().map(ActiveQueues.Active::queue).toList();
	}

	@Override
	public Optional<Instant> oldestWaiting(MatchQueue queue) {
		Set<ZSetOperations.TypedTuple<String>> oldest = this.redis.opsForZSet().rangeWithScores(queue.key(), 0, 0);
		return (oldest == null) ? Optional.empty()
				: oldest.stream()
					.map(ZSetOperations.TypedTuple::getScore)
					.filter(Objects::nonNull)
					.map((score) -> Instant.ofEpochMilli(score.longValue()))
					.findFirst();
	}

	@Override
	public List<QueueEntry> waiting(MatchQueue queue) {
		Set<ZSetOperations.TypedTuple<String>> entries = this.redis.opsForZSet().rangeWithScores(queue.key(), 0, -1);
		if (entries == null) {
			return List.of();
		}
		return entries.stream()
			.filter((entry) -> entry.getValue() != null && entry.getScore() != null)
			.map((entry) -> QueueEntry.parse(Objects.requireNonNull(entry.getValue()),
					String.valueOf(Objects.requireNonNull(entry.getScore()).longValue()), queue))
			.flatMap((entry) -> entry.people().stream())
			.toList();
	}

	@Override
	public List<String> roomPartners(String token) {
		Object partners = this.redis.opsForHash().get(RedisKeys.claim(token), ConfirmRoomScript.PARTNERS);
		return (partners == null || partners.toString().isEmpty()) ? List.of()
				: List.of(partners.toString().split(","));
	}

	@Override
	public boolean offerSeat(OpenSeat seat, Instant until, Instant now) {
		return this.offerSeat.offer(seat, until, now);
	}

	@Override
	public boolean withdrawSeat(OpenSeat seat, Instant now) {
		return this.offerSeat.withdraw(seat, now);
	}

	@Override
	public Optional<OpenSeat> takeSeat(MatchQueue queue, String token, String recentPartners, Instant now) {
		return this.takeSeat.take(queue, token, recentPartners, now);
	}

	@Override
	public boolean confirmSeat(String token, TokenState.Matched written, List<String> partnerIds, Duration ttl,
			Duration cooldown, Instant now) {
		return this.confirmRoom.confirm(token, written, partnerIds, ttl, cooldown, now);
	}

}
