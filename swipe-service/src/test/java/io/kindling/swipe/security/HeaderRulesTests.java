package io.kindling.swipe.security;

import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loop gives the same answers as the patterns StrictHttpFirewall 7.0.6 uses (read
 * from its class file), for every code point and for whole headers.
 */
class HeaderRulesTests {

	private static final Pattern NAMES = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");

	private static final Pattern VALUES = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

	@Test
	void everyCodePointAloneIsJudgedAsThePatternsJudgeIt() {
		for (int codePoint = 0; codePoint <= Character.MAX_CODE_POINT; codePoint++) {
			String text = "a" + Character.toString(codePoint) + "b";
			assertThat(HeaderRules.allowedName(text)).as("name U+%04X", codePoint)
				.isEqualTo(NAMES.matcher(text).matches());
			assertThat(HeaderRules.allowedValue(text)).as("value U+%04X", codePoint)
				.isEqualTo(VALUES.matcher(text).matches());
		}
	}

	@Test
	void wholeHeadersAreJudgedAsThePatternsJudgeThem() {
		List<String> headers = List.of("", "Authorization",
				"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiIsImV4cCI6NDEwMjQ0NDgwMH0.c2lnbmF0dXJl", "a\tb", "a\nb",
				"a\rb", "caf\u00e9 \u65e5\u672c", "emoji \uD83D\uDE00", "lone \uD800 surrogate", "trailing \uDBFF",
				"del \u007f", "c1 \u0085", "nbsp \u00a0", "unassigned \u0378");
		for (String header : headers) {
			assertThat(HeaderRules.allowedName(header)).as(header).isEqualTo(NAMES.matcher(header).matches());
			assertThat(HeaderRules.allowedValue(header)).as(header).isEqualTo(VALUES.matcher(header).matches());
		}
		assertThat(HeaderRules.allowedValue(null)).isTrue();
		assertThat(HeaderRules.allowedName(null)).isFalse();
	}

}
