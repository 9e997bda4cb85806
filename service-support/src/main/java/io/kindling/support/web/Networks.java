package io.kindling.support.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Client addresses as limits and bans count them: an IPv4 address by itself or by its
 * /24, an IPv6 address only ever by its /64, since one subscriber is handed a whole /64
 * and picks any address in it at will. Pure text to text: nothing is ever looked up. An
 * address it cannot read is taken as it is, on its own.
 */
public final class Networks {

	/** The narrowest IPv4 network a limit or a report ban counts by. */
	public static final int IPV4_NETWORK = 24;

	/** The narrowest IPv6 network anything counts by: one subscriber's. */
	public static final int IPV6_NETWORK = 64;

	/** The widest networks a ban may name: a slip must not ban a continent. */
	private static final int WIDEST_IPV4 = 8;

	private static final int WIDEST_IPV6 = 16;

	private Networks() {
	}

	/**
	 * The network the address belongs to: its /24 (IPv4) or its /64 (IPv6), as CIDR text
	 * ({@code 203.0.113.0/24}, {@code 2001:db8:1:2::/64}).
	 */
	public static String of(String address) {
		byte[] bytes = parse(address);
		if (bytes == null) {
			return address;
		}
		return network(bytes, (bytes.length == 4) ? IPV4_NETWORK : IPV6_NETWORK);
	}

	/**
	 * What a per-address limit counts: an IPv4 address itself, an IPv6 address's /64.
	 */
	public static String rateLimitKey(String address) {
		byte[] bytes = parse(address);
		if (bytes == null) {
			return address;
		}
		return (bytes.length == 4) ? format(bytes) : network(bytes, IPV6_NETWORK);
	}

	/**
	 * An address or a CIDR network in the one form bans name them: an IPv4 address as
	 * itself (a /32 too), an IPv4 network with its host bits cleared, an IPv6 address or
	 * network as the /64 (or wider network) it lies in.
	 * @throws IllegalArgumentException when it is neither, or a network wider than a /8
	 * (IPv4) or a /16 (IPv6)
	 */
	public static String subject(String addressOrNetwork) {
		String text = addressOrNetwork.strip();
		int slash = text.indexOf('/');
		byte[] bytes = parse((slash < 0) ? text : text.substring(0, slash));
		if (bytes == null || text.indexOf('%') >= 0) {
			throw new IllegalArgumentException("not an IPv4 or IPv6 address or network: " + addressOrNetwork);
		}
		int bits = bytes.length * 8;
		int length = bits;
		if (slash >= 0) {
			String digits = text.substring(slash + 1);
			if (!digits.matches("[0-9]{1,3}") || Integer.parseInt(digits) > bits) {
				throw new IllegalArgumentException(
						"not a prefix length of an IPv" + ((bits == 32) ? 4 : 6) + " network: /" + digits);
			}
			length = Integer.parseInt(digits);
		}
		int widest = (bits == 32) ? WIDEST_IPV4 : WIDEST_IPV6;
		if (length < widest) {
			throw new IllegalArgumentException("a network wider than a /" + widest + " is not banned here");
		}
		if (bits == 32) {
			return (length == 32) ? format(bytes) : network(bytes, length);
		}
		return network(bytes, Math.min(length, IPV6_NETWORK));
	}

	/**
	 * Every {@link #subject} that covers the address, the narrowest first: for IPv4 the
	 * address and each network from the /31 to the /8 it lies in, for IPv6 each from its
	 * /64 to its /16. An address it cannot read is covered by itself alone.
	 */
	public static List<String> covering(String address) {
		byte[] bytes = parse(address);
		if (bytes == null) {
			return List.of(address);
		}
		List<String> subjects = new ArrayList<>();
		if (bytes.length == 4) {
			subjects.add(format(bytes));
			for (int length = 31; length >= WIDEST_IPV4; length--) {
				subjects.add(network(bytes, length));
			}
		}
		else {
			for (int length = IPV6_NETWORK; length >= WIDEST_IPV6; length--) {
				subjects.add(network(bytes, length));
			}
		}
		return subjects;
	}

	private static String network(byte[] address, int length) {
		byte[] masked = address.clone();
		for (int bit = length; bit < masked.length * 8; bit++) {
			masked[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
		}
		return format(masked) + "/" + length;
	}

	/**
	 * Dotted decimal, or IPv6 as RFC 5952 writes it: lower case, no leading zeros, the
	 * longest run of two or more zero groups as {@code ::}.
	 */
	private static String format(byte[] bytes) {
		if (bytes.length == 4) {
			return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
		}
		int[] groups = new int[8];
		for (int i = 0; i < 8; i++) {
			groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
		}
		int runStart = -1;
		int runLength = 0;
		for (int i = 0; i < 8;) {
			int j = i;
			while (j < 8 && groups[j] == 0) {
				j++;
			}
			if (j - i > runLength && j - i >= 2) {
				runStart = i;
				runLength = j - i;
			}
			i = Math.max(j, i + 1);
		}
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < 8; i++) {
			if (i == runStart) {
				text.append("::");
				i += runLength - 1;
				continue;
			}
			if (!text.isEmpty() && text.charAt(text.length() - 1) != ':') {
				text.append(':');
			}
			text.append(Integer.toHexString(groups[i]));
		}
		return text.toString();
	}

	/**
	 * The address's bytes, 4 or 16 (an IPv4-mapped IPv6 address gives its IPv4 bytes), or
	 * null when it is not an address literal.
	 */
	private static byte @Nullable [] parse(String address) {
		String text = address.strip();
		if (text.startsWith("[") && text.endsWith("]")) {
			text = text.substring(1, text.length() - 1);
		}
		int zone = text.indexOf('%');
		if (zone >= 0) {
			text = text.substring(0, zone);
		}
		if (text.indexOf(':') < 0) {
			return ipv4(text);
		}
		byte[] bytes = ipv6(text.toLowerCase(Locale.ROOT));
		if (bytes != null && isIpv4Mapped(bytes)) {
			return new byte[] { bytes[12], bytes[13], bytes[14], bytes[15] };
		}
		return bytes;
	}

	/** Four decimal numbers 0 to 255, without leading zeros, parted by dots. */
	private static byte @Nullable [] ipv4(String text) {
		byte[] bytes = new byte[4];
		int part = 0;
		int value = -1;
		for (int i = 0; i <= text.length(); i++) {
			char c = (i < text.length()) ? text.charAt(i) : '.';
			if (c == '.') {
				if (value < 0 || part == 4) {
					return null;
				}
				bytes[part++] = (byte) value;
				value = -1;
			}
			else if (c >= '0' && c <= '9' && value != 0) {
				value = Math.max(value, 0) * 10 + (c - '0');
				if (value > 255) {
					return null;
				}
			}
			else {
				return null;
			}
		}
		return (part == 4) ? bytes : null;
	}

	private static byte @Nullable [] ipv6(String text) {
		int gap = text.indexOf("::");
		// at most one "::", and a dotted IPv4 only as the last 32 bits
		if (gap >= 0 && (text.indexOf("::", gap + 1) >= 0 || text.substring(0, gap).indexOf('.') >= 0)) {
			return null;
		}
		List<Integer> head = (gap < 0) ? groups(text) : groups(text.substring(0, gap));
		List<Integer> tail = (gap < 0) ? List.of() : groups(text.substring(gap + 2));
		if (head == null || tail == null) {
			return null;
		}
		int count = head.size() + tail.size();
		if ((gap < 0) ? count != 8 : count > 7) {
			return null;
		}
		byte[] bytes = new byte[16];
		for (int i = 0; i < head.size(); i++) {
			put(bytes, i, head.get(i));
		}
		for (int i = 0; i < tail.size(); i++) {
			put(bytes, 8 - tail.size() + i, tail.get(i));
		}
		return bytes;
	}

	/**
	 * The 16-bit groups of one side of {@code ::}, a dotted IPv4 at its end counted as
	 * two; null when one cannot be read.
	 */
	private static @Nullable List<Integer> groups(String side) {
		List<Integer> groups = new ArrayList<>();
		if (side.isEmpty()) {
			return groups;
		}
		String[] parts = side.split(":", -1);
		for (int i = 0; i < parts.length; i++) {
			String part = parts[i];
			if (i == parts.length - 1 && part.indexOf('.') >= 0) {
				byte[] ipv4 = ipv4(part);
				if (ipv4 == null) {
					return null;
				}
				groups.add(((ipv4[0] & 0xff) << 8) | (ipv4[1] & 0xff));
				groups.add(((ipv4[2] & 0xff) << 8) | (ipv4[3] & 0xff));
			}
			else if (!part.isEmpty() && part.length() <= 4 && part.chars().allMatch(Networks::isHexDigit)) {
				groups.add(Integer.parseInt(part, 16));
			}
			else {
				return null;
			}
		}
		return groups;
	}

	private static boolean isHexDigit(int c) {
		return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
	}

	private static void put(byte[] bytes, int group, int value) {
		bytes[2 * group] = (byte) (value >>> 8);
		bytes[2 * group + 1] = (byte) value;
	}

	private static boolean isIpv4Mapped(byte[] bytes) {
		for (int i = 0; i < 10; i++) {
			if (bytes[i] != 0) {
				return false;
			}
		}
		return bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
	}

}
