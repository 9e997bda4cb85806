package io.kindling.support.text;

import java.util.Optional;

/**
 * The rule for a conversation's message, in rooms and in matches alike: 1 to
 * {@code maxCodePoints} characters counted as code points (an emoji is one, as a person
 * counts it), not only whitespace, and no control character but the newline. A lone
 * surrogate (a JSON {@code "\ud800"}) is no character at all, and no utf8mb4 column could
 * store it.
 */
public final class MessageText {

	private MessageText() {
	}

	/**
	 * Why the text breaks the rule, in a sentence for its sender; empty when it does not.
	 */
	public static Optional<String> problem(String text, int maxCodePoints) {
		if (text.isEmpty()) {
			return Optional.of("text must not be empty.");
		}
		int length = 0;
		boolean visible = false;
		for (int i = 0; i < text.length(); i++) {
			char unit = text.charAt(i);
			if (Character.isHighSurrogate(unit) && i + 1 < text.length()
					&& Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(unit)) {
				return Optional.of("text holds a lone surrogate, which is not a character.");
			}
			else if (unit != '\n' && Character.isISOControl(unit)) {
				return Optional.of("text must not hold control characters other than the newline (found U+%04X)."
					.formatted((int) unit));
			}
			visible |= !Character.isWhitespace(unit) && !Character.isSpaceChar(unit);
			length++;
		}
		if (length > maxCodePoints) {
			return Optional.of("text must be at most %,d characters (it has %,d).".formatted(maxCodePoints, length));
		}
		if (!visible) {
			return Optional.of("text must not be only whitespace.");
		}
		return Optional.empty();
	}

}
