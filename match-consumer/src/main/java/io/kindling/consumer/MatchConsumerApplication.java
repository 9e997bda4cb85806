package io.kindling.consumer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Reads {@code kindling.matches} and {@code kindling.messages} and tells each person of
 * their matches and of the messages they are sent: a consumer of Kindling's events as
 * another team would write one.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class MatchConsumerApplication {

	public static void main(String[] args) {
		SpringApplication.run(MatchConsumerApplication.class, args);
	}

}
