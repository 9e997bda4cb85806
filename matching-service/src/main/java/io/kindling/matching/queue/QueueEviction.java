package io.kindling.matching.queue;

import org.springframework.stereotype.Component;

/**
 * Takes a waiting token out of its queue on someone else's behalf (a ban): its claim
 * first, by compare-and-set, then its entry, as a leave does.
 */
@Component
public class QueueEviction {

	private static final int ATTEMPTS = 5;

	private final TokenClaims claims;

	private final SwapClaimScript swapClaims;

	QueueEviction(TokenClaims claims, SwapClaimScript swapClaims) {
		this.claims = claims;
		this.swapClaims = swapClaims;
	}

	/**
	 * @return true when the token was waiting and is out of its queue now; a token idle
	 * or in a room is left as it is
	 */
	public boolean evict(String token) {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			if (!(this.claims.read(token) instanceof TokenState.Waiting waiting)) {
				return false;
			}
			if (this.swapClaims.swap(SwapClaimScript.Swap.toIdle(token, waiting))) {
				this.claims.removeEntry(waiting.queue(), waiting.entry(token));
				return true;
			}
			// its claim moved meanwhile (a room formed, or it left): look again
		}
		return false;
	}

}
