package io.kindling.matching.join;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;

/** {@code POST /api/matching}: the topic and room size to wait for. */
record JoinRequest(@NotNull @Positive Long topicId,
		@NotNull @Min(value = 2, message = "must be 2 or 3") @Max(value = 3, message = "must be 2 or 3") Integer size) {

}
