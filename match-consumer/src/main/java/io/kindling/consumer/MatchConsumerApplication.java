package io.kindling.consumer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Reads {@code kindling.matches} and tells each person of their matches: a consumer of
 * Kindling's events as another team would write one.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MatchConsumerApplication {

	public static void main(String[] args) {
		SpringApplication.run(MatchConsumerApplication.class, args);
	}

}
