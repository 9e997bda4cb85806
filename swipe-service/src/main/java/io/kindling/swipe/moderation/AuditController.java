package io.kindling.swipe.moderation;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import io.kindling.support.web.Refuses;
import io.kindling.swipe.moderation.AdminAudit.EntryPage;
import io.kindling.swipe.security.Operator;
import io.swagger.v3.oas.annotations.Operation;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/admin/audit}, behind the admin token. */
@RestController
class AuditController {

	private final AdminAudit audit;

	AuditController(AdminAudit audit) {
		this.audit = audit;
	}

	@GetMapping("/api/admin/audit")
	@Operation(summary = "List the operators' calls",
			description = "Every call of this API that read or changed something, newest first, this one included: "
					+ "`token_id` (the first 16 hex digits of the SHA-256 of the token used, never the token), "
					+ "`action`, `subject` (`user:<id>`, `report:<id>`), `detail`, `created_at`. `limit` (1 to "
					+ "200) at a time; pass `next_cursor` back as `cursor` for the next page (400 `bad-cursor` "
					+ "for one that cannot be read). Needs the admin token.")
	@Refuses("bad-cursor")
	EntryPage list(@AuthenticationPrincipal Operator operator, @RequestParam(required = false) @Nullable String cursor,
			@RequestParam(defaultValue = "" + AdminAudit.PAGE_SIZE) @Min(1) @Max(AdminAudit.MAX_PAGE_SIZE) int limit) {
		return this.audit.page(operator, cursor, limit);
	}

}
