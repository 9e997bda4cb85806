package io.kindling.matching.ban;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import io.kindling.matching.Persistence;
import io.kindling.support.web.Networks;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.data.domain.Limit;
import org.springframework.stereotype.Service;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The operators' bans: make, lift, list. A ban bites everywhere at once: every instance
 * hears of it, and a banned session still waiting, or one waiting from an address banned,
 * leaves its queue.
 */
@Service
class BanAdmin {

	private static final Pattern SESSION_KEY = Pattern.compile("[0-9a-f]{64}");

	private final BanRepository bans;

	private final SessionBans sessionBans;

	private final TransactionTemplate transactions;

	private final Clock clock;

	BanAdmin(BanRepository bans, SessionBans sessionBans,
			@Qualifier(Persistence.JPA_TRANSACTIONS) PlatformTransactionManager jpa, Clock clock) {
		this.bans = bans;
		this.sessionBans = sessionBans;
		this.transactions = new TransactionTemplate(jpa);
		this.clock = clock;
	}

	/**
	 * Bans an address, a network or a session; an expired ban of the same subject is made
	 * again.
	 * @param value an IP address or a network (CIDR), or a session's key (the SHA-256,
	 * hex, of its token)
	 * @param expiresAt when it ends (kept to the second); null for never
	 * @throws io.kindling.support.web.Refused {@code already-banned} when an active ban
	 * of it exists
	 */
	ManagedBan ban(BanType type, String value, @Nullable Instant expiresAt, @Nullable String reason) {
		String subject = subject(type, value);
		Instant now = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);
		Instant ends = (expiresAt != null) ? expiresAt.truncatedTo(ChronoUnit.SECONDS) : null;
		if (ends != null && !ends.isAfter(now)) {
			throw BanRefusals.BAD_BAN.refused("expires_at must be in the future");
		}
		ManagedBan made = this.transactions.execute((status) -> {
			Optional<BanEntity> held = this.bans.findByBanTypeAndSubject(type, subject);
			if (held.isPresent() && held.get().activeAt(now)) {
				throw BanRefusals.ALREADY_BANNED.refused("this subject is banned already, by ban " + held.get().id());
			}
			BanEntity ban = held.orElseGet(() -> new BanEntity(type, subject, reason, now, ends));
			held.ifPresent((expired) -> expired.renew(reason, now, ends));
			BanEntity saved = this.bans.saveAndFlush(ban);
			if (type == BanType.SESSION) {
				this.sessionBans.appendBanned(saved.id(), subject, "OPERATOR", ends, now);
			}
			return ManagedBan.of(saved);
		});
		this.sessionBans.enforce((type == BanType.SESSION) ? List.of(subject) : List.of(), type == BanType.IP);
		return made;
	}

	/** Lifts a ban: its row goes. */
	void lift(long id) {
		this.transactions.executeWithoutResult((status) -> {
			BanEntity ban = this.bans.findById(id)
				.orElseThrow(() -> BanRefusals.NO_SUCH_BAN.refused("no ban has id " + id));
			this.bans.delete(ban);
		});
		this.sessionBans.enforce(List.of(), false);
	}

	/**
	 * Newest first, active and expired alike.
	 * @param cursor the {@code next_cursor} of the page before, or null for the first
	 */
	Page list(@Nullable String cursor, int limit) {
		long before = Long.MAX_VALUE;
		if (cursor != null) {
			try {
				before = Long.parseLong(cursor);
			}
			catch (NumberFormatException ex) {
				throw BanRefusals.badCursor();
			}
			if (before <= 0) {
				throw BanRefusals.badCursor();
			}
		}
		long after = before;
		List<ManagedBan> page = this.transactions
			.execute((status) -> this.bans.findByIdLessThanOrderByIdDesc(after, Limit.of(limit + 1))
				.stream()
				.map(ManagedBan::of)
				.toList());
		if (page.size() <= limit) {
			return new Page(page, null);
		}
		List<ManagedBan> shown = page.subList(0, limit);
		return new Page(List.copyOf(shown), String.valueOf(shown.get(limit - 1).id()));
	}

	private static String subject(BanType type, String value) {
		String given = value.strip().toLowerCase(Locale.ROOT);
		if (type == BanType.SESSION) {
			if (!SESSION_KEY.matcher(given).matches()) {
				throw BanRefusals.BAD_BAN
					.refused("a SESSION ban's value is the session's key: 64 hex digits (the SHA-256 of its token)");
			}
			return given;
		}
		try {
			return Networks.subject(given);
		}
		catch (IllegalArgumentException ex) {
			throw BanRefusals.BAD_BAN.refused("an IP ban's value is an IPv4 or IPv6 address, or a network in CIDR "
					+ "notation (at most a /8 or a /16): " + ex.getMessage());
		}
	}

	/** A ban as the operators' API shows it. */
	record ManagedBan(long id, BanType banType, String value, @Nullable String reason, Instant createdAt,
			@Nullable Instant expiresAt) {

		static ManagedBan of(BanEntity ban) {
			return new ManagedBan(ban.id(), ban.banType(), ban.subject(), ban.reason(), ban.createdAt(),
					ban.expiresAt());
		}

	}

	/**
	 * @param nextCursor null on the last page
	 */
	record Page(List<ManagedBan> bans, @Nullable String nextCursor) {

	}

}
