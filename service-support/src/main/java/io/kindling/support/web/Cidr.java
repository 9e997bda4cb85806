package io.kindling.support.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An address or a block of addresses, written {@code 10.0.0.0/8}, {@code 127.0.0.2},
 * {@code fd00::/8}. Addresses are read as literals only, never looked up in DNS.
 */
public final class Cidr {

	private static final Pattern IPV4 = Pattern
		.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");

	private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

	private final byte[] network;

	private final int prefixLength;

	private final String text;

	private Cidr(byte[] network, int prefixLength, String text) {
		this.network = network;
		this.prefixLength = prefixLength;
		this.text = text;
	}

	/**
	 * @throws IllegalArgumentException for anything but an IPv4 or IPv6 literal with an
	 * optional prefix length that fits it
	 */
	public static Cidr parse(String text) {
		String given = text.strip();
		int slash = given.indexOf('/');
		String address = (slash >= 0) ? given.substring(0, slash) : given;
		InetAddress parsed = literal(address)
			.orElseThrow(() -> new IllegalArgumentException("'" + text + "' is not an IP address or a CIDR block"));
		int bits = parsed.getAddress().length * 8;
		int prefixLength = bits;
		if (slash >= 0) {
			String length = given.substring(slash + 1);
			if (!length.matches("\\d{1,3}") || Integer.parseInt(length) > bits) {
				throw new IllegalArgumentException("'" + text + "' has a prefix length that is not 0 to " + bits);
			}
			prefixLength = Integer.parseInt(length);
		}
		return new Cidr(masked(parsed.getAddress(), prefixLength), prefixLength, given);
	}

	/**
	 * The address an IPv4 or IPv6 literal names ({@code 203.0.113.7},
	 * {@code 2001:db8::1}, {@code [2001:db8::1]}); empty for anything else, host names
	 * included.
	 */
	public static Optional<InetAddress> literal(String text) {
		String given = text.strip();
		if (given.startsWith("[") && given.endsWith("]")) {
			given = given.substring(1, given.length() - 1);
		}
		if (!IPV4.matcher(given).matches() && !IPV6.matcher(given).matches()) {
			return Optional.empty();
		}
		try {
			// a literal: parsed, never resolved
			return Optional.of(InetAddress.getByName(given));
		}
		catch (UnknownHostException ex) {
			return Optional.empty();
		}
	}

	public boolean contains(InetAddress address) {
		byte[] bytes = address.getAddress();
		return bytes.length == this.network.length
				&& java.util.Arrays.equals(masked(bytes, this.prefixLength), this.network);
	}

	private static byte[] masked(byte[] address, int prefixLength) {
		byte[] masked = address.clone();
		for (int i = 0; i < masked.length; i++) {
			int keep = Math.clamp(prefixLength - i * 8L, 0, 8);
			masked[i] &= (byte) (0xFF << (8 - keep));
		}
		return masked;
	}

	@Override
	public String toString() {
		return this.text;
	}

}
