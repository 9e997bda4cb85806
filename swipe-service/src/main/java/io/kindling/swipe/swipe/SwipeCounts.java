package io.kindling.swipe.swipe;

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

	private final Map<String, Counter> byAction;

	SwipeCounts(MeterRegistry registry) {
		this.byAction = Map.of("LIKE", counter(registry, "LIKE"), "PASS", counter(registry, "PASS"), "SUPER_LIKE",
				counter(registry, "SUPER_LIKE"));
	}

	private static Counter counter(MeterRegistry registry, String action) {
		return Counter.builder("kindling.swipe.swipes")
			.description("Swipes stored (each once: no replay, no refusal)")
			.tag("action", action)
			.register(registry);
	}

	@EventListener
	void on(SwipeRecorded swipe) {
		Counter counter = this.byAction.get(swipe.action());
		if (counter != null) {
			counter.increment();
		}
	}

}
