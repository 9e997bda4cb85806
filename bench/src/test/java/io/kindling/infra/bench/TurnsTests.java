package io.kindling.infra.bench;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TurnsTests {

	@Test
	void twoSidesTakeTurnsEachFirstInEveryOtherSlice() throws Exception {
		List<String> turns = new ArrayList<>();

		Turns.alternate(3, "standalone", "cluster", (side, slice) -> turns.add(slice + " " + side));

		assertThat(turns).containsExactly("0 standalone", "0 cluster", "1 cluster", "1 standalone", "2 standalone",
				"2 cluster");
	}

}
