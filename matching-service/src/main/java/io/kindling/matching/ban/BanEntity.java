package io.kindling.matching.ban;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.jspecify.annotations.Nullable;

/** A row of {@code bans}, as the operators' API makes, lists and lifts it. */
@Entity
@Table(name = "bans")
class BanEntity {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private @Nullable Long id;

	@Enumerated(EnumType.STRING)
	@Column(name = "ban_type", nullable = false, length = 16)
	private BanType banType = BanType.SESSION;

	@Column(nullable = false, length = 191)
	private String subject = "";

	@Column(length = 500)
	private @Nullable String reason;

	@Column(name = "created_at", nullable = false)
	private Instant createdAt = Instant.EPOCH;

	@Column(name = "expires_at")
	private @Nullable Instant expiresAt;

	protected BanEntity() {
	}

	BanEntity(BanType banType, String subject, @Nullable String reason, Instant createdAt,
			@Nullable Instant expiresAt) {
		this.banType = banType;
		this.subject = subject;
		renew(reason, createdAt, expiresAt);
	}

	long id() {
		if (this.id == null) {
			throw new IllegalStateException("a ban not saved yet has no id");
		}
		return this.id;
	}

	BanType banType() {
		return this.banType;
	}

	String subject() {
		return this.subject;
	}

	@Nullable String reason() {
		return this.reason;
	}

	Instant createdAt() {
		return this.createdAt;
	}

	@Nullable Instant expiresAt() {
		return this.expiresAt;
	}

	boolean activeAt(Instant now) {
		return this.expiresAt == null || this.expiresAt.isAfter(now);
	}

	/** An expired ban made again: the row is the subject's one (a unique key). */
	void renew(@Nullable String reason, Instant createdAt, @Nullable Instant expiresAt) {
		this.reason = reason;
		this.createdAt = createdAt;
		this.expiresAt = expiresAt;
	}

}
