package io.kindling.push;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

/**
 * What every service with event streams gets: handlers may take a {@link LastEventId}.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class PushAutoConfiguration {

	@Bean
	LastEventIdResolver lastEventIdResolver() {
		return new LastEventIdResolver();
	}

}
