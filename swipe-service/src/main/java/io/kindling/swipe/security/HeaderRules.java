package io.kindling.swipe.security;

import org.jspecify.annotations.Nullable;

/**
 * Spring Security's {@code StrictHttpFirewall} header rules (7.0), without their regular
 * expressions: a name is assigned, non-control code points,
 * {@code [\p{IsAssigned}&&[^\p{IsControl}]]*}; a value may also hold tabs,
 * {@code [\p{IsAssigned}&&[[^\p{IsControl}]||\t]]*}. Matching those patterns over every
 * header, the bearer token's few hundred characters among them, was about 3 % of the
 * service's CPU in a JFR profile of the swipes bench; the same answer from a loop that
 * passes printable ASCII at a glance costs next to nothing.
 */
final class HeaderRules {

	private HeaderRules() {
	}

	static boolean allowedName(@Nullable String name) {
		return name != null && allowed(name, false);
	}

	static boolean allowedValue(@Nullable String value) {
		// the firewall checks only headers that are present
		return value == null || allowed(value, true);
	}

	private static boolean allowed(String text, boolean tabs) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c >= 0x20 && c < 0x7F) {
				continue;
			}
			if (c == '\t' && tabs) {
				continue;
			}
			if (c < 0xA0) {
				// C0 controls, DEL and the C1 controls
				return false;
			}
			int codePoint = text.codePointAt(i);
			int type = Character.getType(codePoint);
			if (type == Character.UNASSIGNED || type == Character.CONTROL) {
				return false;
			}
			i += Character.charCount(codePoint) - 1;
		}
		return true;
	}

}
