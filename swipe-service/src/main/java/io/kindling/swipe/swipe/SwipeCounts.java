package io.kindling.swipe.swipe;

import java.util.EnumMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Swipes stored, by action, as the counter {@code kindling.swipe.swipes}: each once,
 * never a replay or a refusal (the operators' console charts them per minute).
 */
@Component
class SwipeCounts {

	private final Map<Action, Counter> byAction = new EnumMap<>(Action.class);

	SwipeCounts(MeterRegistry registry) {
		for (Action action : Action.values()) {
			this.byAction.put(action,
					Counter.builder("kindling.swipe.swipes")
						.description("Swipes stored (each once: no replay, no refusal)")
						.tag("action", action.name())
						.register(registry));
		}
	}

	@EventListener
	void on(SwipeRecorded swipe) {
		this.byAction.get(swipe.action()).increment();
	}

}
