package io.kindling.support.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * A configured secret that callers send as {@code Authorization: Bearer <token>}: the
 * operators' admin token, the actuator's metrics token. While the secret is empty it is
 * off and refuses everyone, whatever they send.
 * <p>
 * The secret is kept only as its SHA-256, and a presented token is hashed before
 * {@link MessageDigest#isEqual} compares the two: both sides are always 32 bytes, so the
 * comparison takes the same time however much of a guess was right and however long it
 * was.
 */
public final class BearerToken {

	private static final String BEARER = "Bearer ";

	private final byte @Nullable [] digest;

	private final Refusals refusals;

	/**
	 * @param secret the configured token; empty (or null) turns it off
	 * @param refusals what a refused caller is told, in each case
	 */
	public BearerToken(@Nullable String secret, Refusals refusals) {
		this.digest = (secret == null || secret.isEmpty()) ? null : digest(secret);
		this.refusals = refusals;
	}

	/**
	 * The token an {@code Authorization} header carries: what follows {@code Bearer }
	 * (the scheme in any case), stripped; null for no header or another scheme.
	 */
	public static @Nullable String presented(@Nullable String authorization) {
		if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return null;
		}
		return authorization.substring(BEARER.length()).strip();
	}

	/**
	 * Why the request's {@code Authorization} header does not open the way; null when it
	 * does.
	 */
	public @Nullable String refusal(HttpServletRequest request) {
		return refusalOf(presented(request.getHeader(HttpHeaders.AUTHORIZATION)));
	}

	/**
	 * Why a presented token does not open the way (off, none sent, not the secret); null
	 * when it is the secret.
	 */
	public @Nullable String refusalOf(@Nullable String presented) {
		if (this.digest == null) {
			return this.refusals.off();
		}
		if (presented == null) {
			return this.refusals.notSent();
		}
		return MessageDigest.isEqual(this.digest, digest(presented)) ? null : this.refusals.wrong();
	}

	/**
	 * Lets the request by when its {@code Authorization} header carries the secret.
	 * @throws Refused {@link ProblemType#UNAUTHENTICATED}, with the refusal as its detail
	 */
	public void require(HttpServletRequest request) {
		String refusal = refusal(request);
		if (refusal != null) {
			throw ProblemType.UNAUTHENTICATED.refused(refusal);
		}
	}

	@Override
	public String toString() {
		return (this.digest != null) ? "BearerToken[set]" : "BearerToken[off]";
	}

	static byte[] digest(String token) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JVM has SHA-256", ex);
		}
	}

	/**
	 * What a refused caller is told.
	 *
	 * @param off while no secret is set
	 * @param notSent when no bearer token came
	 * @param wrong when the token is not the secret
	 */
	public record Refusals(String off, String notSent, String wrong) {

	}

}
