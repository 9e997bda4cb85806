package io.kindling.support.web;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A limit that leaves no worker thread free stops the start: nothing would be left to
 * answer the refusals and the health checks.
 */
class OverloadSettingsTests {

	private final WebApplicationContextRunner contexts = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, WebEdgeAutoConfiguration.class));

	@Test
	void aLimitBelowTheWorkerThreadsStarts() {
		this.contexts.withPropertyValues("server.tomcat.threads.max=32", "kindling.web.overload.limit=24")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aLimitAsLargeAsTheWorkerThreadsStopsTheStart() {
		this.contexts.withPropertyValues("server.tomcat.threads.max=32", "kindling.web.overload.limit=32")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("kindling.web.overload.limit (32) must be below server.tomcat.threads.max (32)"));
	}

	@Test
	void noLimitStartsWhateverTheThreads() {
		this.contexts.withPropertyValues("server.tomcat.threads.max=4", "kindling.web.overload.limit=0")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aMinimumBelowOneStopsTheStart() {
		this.contexts.withPropertyValues("kindling.web.overload.min-limit=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("kindling.web.overload.min-limit must be 1 or more, was 0"));
	}

}
