package io.kindling.support.web;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * A configured bearer token: the right token passes; no header, another scheme or another
 * token is refused with the detail given for that case; while unset, everyone is.
 */
class BearerTokenTests {

	private static final BearerToken.Refusals REFUSALS = new BearerToken.Refusals("off", "not sent", "wrong");

	private final BearerToken token = new BearerToken("s3cret-token", REFUSALS);

	@Test
	void theRightTokenPassesWhateverTheSchemesCaseAndTheSpacesAround() {
		for (String header : new String[] { "Bearer s3cret-token", "bearer s3cret-token", "BEARER  s3cret-token ",
				"Bearer s3cret-token\t" }) {
			assertThat(this.token.refusal(call(header))).as(header).isNull();
			assertThatNoException().as(header).isThrownBy(() -> this.token.require(call(header)));
		}
		assertThat(this.token.refusalOf("s3cret-token")).isNull();
	}

	@Test
	void noHeaderIsRefusedAsNotSent() {
		assertThat(this.token.refusal(call(null))).isEqualTo("not sent");
		assertThat(this.token.refusalOf(null)).isEqualTo("not sent");
	}

	@Test
	void anotherSchemeIsRefusedAsNotSent() {
		for (String header : new String[] { "Basic czNjcmV0LXRva2Vu", "s3cret-token", "Bearer", "Bearers3cret-token",
				"Token s3cret-token", "" }) {
			assertThat(BearerToken.presented(header)).as(header).isNull();
			assertThat(this.token.refusal(call(header))).as(header).isEqualTo("not sent");
		}
	}

	@Test
	void anotherTokenIsRefusedAsWrong() {
		for (String header : new String[] { "Bearer s3cret-toke", "Bearer s3cret-tokem", "Bearer s3cret-token2",
				"Bearer S3CRET-TOKEN", "Bearer ", "Bearer s3cret token" }) {
			assertThat(this.token.refusal(call(header))).as(header).isEqualTo("wrong");
		}
	}

	@Test
	void aRefusalIsAnUnauthenticatedProblemWithItsDetail() {
		assertThatExceptionOfType(Refused.class).isThrownBy(() -> this.token.require(call("Bearer guess")))
			.withMessage("wrong")
			.matches((refused) -> refused.refusal() == ProblemType.UNAUTHENTICATED);
		assertThatExceptionOfType(Refused.class).isThrownBy(() -> this.token.require(call(null)))
			.withMessage("not sent")
			.matches((refused) -> refused.refusal() == ProblemType.UNAUTHENTICATED);
	}

	@Test
	void unsetItRefusesEveryoneEvenAnEmptyBearer() {
		for (String secret : new String[] { "", null }) {
			BearerToken off = new BearerToken(secret, REFUSALS);
			for (String header : new String[] { null, "Bearer ", "Bearer", "Bearer x", "Basic x" }) {
				assertThat(off.refusal(call(header))).as(header).isEqualTo("off");
			}
			assertThat(off.refusalOf("")).isEqualTo("off");
			assertThat(off.refusalOf(null)).isEqualTo("off");
			assertThat(off).hasToString("BearerToken[off]");
		}
	}

	@Test
	void theComparisonIsOfDigestsOfOneLengthSoItsTimeTellsNothingOfTheGuess() {
		// MessageDigest.isEqual takes a time that depends only on the presented array's
		// length: both sides are SHA-256 digests, so it is 32 bytes whatever was sent
		for (String guess : new String[] { "", "s", "s3cret-toke", "s3cret-token", "s3cret-token-and-more",
				"x".repeat(100_000) }) {
			assertThat(BearerToken.digest(guess)).as(guess).hasSize(32);
		}
		assertThat(BearerToken.digest("s3cret-token")).isEqualTo(BearerToken.digest("s3cret-token"))
			.isNotEqualTo(BearerToken.digest("s3cret-toke"));
	}

	@Test
	void itNeverShowsTheSecret() {
		assertThat(this.token).hasToString("BearerToken[set]");
	}

	private static MockHttpServletRequest call(@Nullable String authorization) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/admin/things");
		if (authorization != null) {
			request.addHeader("Authorization", authorization);
		}
		return request;
	}

}
