package io.kindling.infra.bench.chaos;

import java.time.Duration;
import java.util.List;

/**
 * What the load saw of the kills, printed once it is over: the table of kills and
 * recoveries, the longest stretches without a successful swipe and join (checked against
 * the target), and every answer the clients got (checked for none refused by the
 * per-address limits).
 */
record Report(ChaosLoad load, Checks checks) {

	private static final Duration TARGET_GAP = Duration.ofSeconds(15);

	/** For the load that ran from {@code loadStart} to {@code loadEnd} (nano times). */
	void print(List<Kills.Kill> kills, long loadStart, long loadEnd) {
		System.out
			.printf("%n| killed | process | served again after | rejoined after | how |%n|---|---|---|---|---|%n");
		for (Kills.Kill kill : kills) {
			System.out.printf("| %s | %s | %s | %s | %s |%n", kill.kind(), kill.name(), kill.servedAgain(),
					kill.rejoined(), kill.how());
		}
		Duration swipeGap = this.load.swipesServed.longestGap(loadStart, loadEnd);
		Duration joinGap = this.load.joinsServed.longestGap(loadStart, loadEnd);
		System.out.printf("%nlongest stretch without a successful swipe: %.1f s (%d swipes served)%n",
				swipeGap.toMillis() / 1e3, this.load.swipesServed.size());
		System.out.printf("longest stretch without a successful join:  %.1f s (%d joins served)%n",
				joinGap.toMillis() / 1e3, this.load.joinsServed.size());
		System.out.printf("answers: %s%n", this.load.answers());
		this.checks.check(swipeGap.compareTo(TARGET_GAP) < 0,
				"the longest stretch without a successful swipe is under %s", TARGET_GAP);
		this.checks.check(joinGap.compareTo(TARGET_GAP) < 0,
				"the longest stretch without a successful join is under %s", TARGET_GAP);
		// a client over its address's limits waits for the next minute: a stretch that
		// measures the limits, not the kills
		int limited = this.load.answers()
			.entrySet()
			.stream()
			.filter((answer) -> answer.getKey().endsWith(" 429"))
			.mapToInt((answer) -> answer.getValue().get())
			.sum();
		this.checks.check(limited == 0, "no call was refused by the per-address limits%s",
				(limited == 0) ? "" : " (" + limited + " were: more --addresses)");
	}

}
