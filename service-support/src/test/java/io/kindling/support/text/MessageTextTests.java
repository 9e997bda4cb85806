package io.kindling.support.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MessageTextTests {

	@Test
	void aMessageOfOneToTheMostCharactersWithNewlinesIsWellFormed() {
		assertThat(MessageText.problem("h", 10)).isEmpty();
		assertThat(MessageText.problem("hello\nthere", 11)).isEmpty();
		assertThat(MessageText.problem("x".repeat(1000), 1000)).isEmpty();
	}

	@Test
	void charactersAreCountedAsCodePointsSoAnEmojiIsOne() {
		String fire = "\uD83D\uDD25";
		assertThat(fire).hasSize(2);
		assertThat(MessageText.problem(fire.repeat(3), 3)).isEmpty();
		assertThat(MessageText.problem(fire.repeat(4), 3)).hasValue("text must be at most 3 characters (it has 4).");
	}

	@Test
	void anEmptyOrBlankOrTooLongMessageIsRefused() {
		assertThat(MessageText.problem("", 10)).hasValue("text must not be empty.");
		assertThat(MessageText.problem(" \n\u00a0\u3000", 10)).hasValue("text must not be only whitespace.");
		assertThat(MessageText.problem("x".repeat(1001), 1000)).isPresent();
	}

	@Test
	void controlCharactersButTheNewlineAndLoneSurrogatesAreRefused() {
		assertThat(MessageText.problem("a\tb", 10))
			.hasValueSatisfying((problem) -> assertThat(problem).contains("U+0009"));
		assertThat(MessageText.problem("a\rb", 10)).isPresent();
		assertThat(MessageText.problem("a\u0000", 10)).isPresent();
		assertThat(MessageText.problem("a\u007f", 10)).isPresent();
		assertThat(MessageText.problem("a\u0085", 10)).isPresent();
		assertThat(MessageText.problem("a\uD800", 10))
			.hasValue("text holds a lone surrogate, which is not a character.");
		assertThat(MessageText.problem("\uDC00a", 10)).isPresent();
	}

}
