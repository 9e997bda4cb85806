package io.kindling.infra.servers;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FreePortsTests {

	@Test
	void portsArePickedBelowTheEphemeralRangeAndNeverTwice() {
		int firstEphemeral = FreePorts.firstEphemeral();
		Set<Integer> picked = new HashSet<>();
		for (int i = 0; i < 500; i++) {
			picked.add(FreePorts.pick());
		}

		assertThat(firstEphemeral).isGreaterThan(11_000);
		assertThat(picked).hasSize(500).allSatisfy((port) -> assertThat(port).isBetween(10_000, firstEphemeral - 1));
	}

	@Test
	void aPortWithAnOffsetKeepsBothBelowTheEphemeralRangeAndHandsOutNeitherAgain() {
		int firstEphemeral = FreePorts.firstEphemeral();
		Set<Integer> picked = new HashSet<>();
		for (int i = 0; i < 100; i++) {
			int port = FreePorts.pick(10_000);
			picked.add(port);
			picked.add(port + 10_000);
		}
		for (int i = 0; i < 500; i++) {
			picked.add(FreePorts.pick());
		}

		assertThat(picked).hasSize(700).allSatisfy((port) -> assertThat(port).isLessThan(firstEphemeral));
	}

}
