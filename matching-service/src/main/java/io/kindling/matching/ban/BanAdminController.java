package io.kindling.matching.ban;

import java.time.Instant;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

import io.kindling.support.web.Refuses;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/admin/bans}, behind the admin token. */
@RestController
@Validated
class BanAdminController {

	private final BanAdmin bans;

	BanAdminController(BanAdmin bans) {
		this.bans = bans;
	}

	@PostMapping("/api/admin/bans")
	@Operation(summary = "Ban an address, a network or a session",
			description = "Bans an IP address or a network in CIDR notation, at most a /8 or a /16 (`IP`; an IPv6 "
					+ "address is banned with its /64, which its owner picks addresses from at will), or a session "
					+ "by its key, the SHA-256 in hex of its token (`SESSION`), until `expires_at`, or for good when "
					+ "that is null. `value` answers as the ban is kept (`203.0.113.0/24`, `2001:db8:1:2::/64`). A "
					+ "banned address may neither join nor start a session. A bad value or an expiry not in the "
					+ "future is 400 `bad-ban`, a subject already actively banned 409 `already-banned`. The ban "
					+ "bites on every instance at once: a banned session that waits in a queue, or one that joined "
					+ "from a banned address, is taken out of it.")
	@Refuses({ "bad-ban", "already-banned" })
	@ResponseStatus(HttpStatus.CREATED)
	BanAdmin.ManagedBan ban(@Valid @RequestBody NewBan request) {
		return this.bans.ban(request.banType(), request.value(), request.expiresAt(), request.reason());
	}

	@DeleteMapping("/api/admin/bans/{id}")
	@Operation(summary = "Lift a ban",
			description = "Removes the ban (204). An id no ban has, never made or lifted already, is 404 "
					+ "`no-such-ban`.")
	@Refuses("no-such-ban")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void lift(@PathVariable long id) {
		this.bans.lift(id);
	}

	@GetMapping("/api/admin/bans")
	@Operation(summary = "List bans",
			description = "Active and expired bans, newest first, `limit` (1 to 200) at a time. Pass `next_cursor` "
					+ "back as `cursor` for the next page; it is null on the last one, and a cursor that cannot "
					+ "be read is 400 `bad-cursor`.")
	@Refuses("bad-cursor")
	BanAdmin.Page list(@RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "50") @Min(1) @Max(200) int limit) {
		return this.bans.list(cursor, limit);
	}

	/**
	 * @param value an IP address or a network (CIDR), or a session's key (the SHA-256,
	 * hex, of its token)
	 * @param expiresAt null for a ban that never ends
	 */
	record NewBan(@NotNull BanType banType, @NotNull @Size(min = 1, max = 191) String value,
			@Nullable Instant expiresAt, @Nullable @Size(max = 500) String reason) {

	}

}
