package io.kindling.infra.bench;

import java.util.List;

/**
 * Two sides of a bench (two stacks, two paths) taking turns in slices, each going first
 * in every other slice, so that a change in the machine's load hits both alike.
 */
public final class Turns {

	private Turns() {
	}

	/** One side's turn in a slice (from 0). */
	@FunctionalInterface
	public interface Turn<S> {

		void take(S side, int slice) throws Exception;

	}

	public static <S> void alternate(int slices, S first, S second, Turn<S> turn) throws Exception {
		for (int slice = 0; slice < slices; slice++) {
			for (S side : (slice % 2 == 0) ? List.of(first, second) : List.of(second, first)) {
				turn.take(side, slice);
			}
		}
	}

}
