package io.kindling.support.web;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class NetworksTests {

	@Test
	void anIpv4AddressBelongsToItsSlash24() {
		assertThat(Networks.of("203.0.113.7")).isEqualTo("203.0.113.0/24");
		assertThat(Networks.of("203.0.113.255")).isEqualTo(Networks.of("203.0.113.1"));
		assertThat(Networks.of("203.0.114.1")).isNotEqualTo(Networks.of("203.0.113.1"));
		assertThat(Networks.of("127.0.0.1")).isEqualTo("127.0.0.0/24");
	}

	@Test
	void anIpv6AddressBelongsToItsSlash64WhicheverWayItIsWritten() {
		assertThat(Networks.of("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isEqualTo("2001:db8:1:2::/64");
		// as a servlet container writes it, with a zone, in brackets, in capitals
		assertThat(Networks.of("2001:0DB8:0001:0002:0:0:0:1")).isEqualTo("2001:db8:1:2::/64");
		assertThat(Networks.of("[2001:db8:1:2::9]")).isEqualTo("2001:db8:1:2::/64");
		assertThat(Networks.of("fe80:0:0:0:1:2:3:4%eth0")).isEqualTo("fe80::/64");
		assertThat(Networks.of("0:0:0:0:0:0:0:1")).isEqualTo("::/64");
		assertThat(Networks.of("2001:db8:1:3::1")).isNotEqualTo(Networks.of("2001:db8:1:2::1"));
	}

	@Test
	void anIpv4MappedIpv6AddressIsItsIpv4Address() {
		assertThat(Networks.of("::ffff:203.0.113.7")).isEqualTo("203.0.113.0/24");
		assertThat(Networks.rateLimitKey("::ffff:cb00:7107")).isEqualTo("203.0.113.7");
	}

	@Test
	void aRateLimitCountsAnIpv4AddressAloneAndAnIpv6AddressByItsSlash64() {
		assertThat(Networks.rateLimitKey("203.0.113.7")).isEqualTo("203.0.113.7");
		assertThat(Networks.rateLimitKey("203.0.113.8")).isNotEqualTo(Networks.rateLimitKey("203.0.113.7"));
		assertThat(Networks.rateLimitKey("2001:db8:1:2::1")).isEqualTo("2001:db8:1:2::/64")
			.isEqualTo(Networks.rateLimitKey("2001:db8:1:2:ffff:ffff:ffff:ffff"));
	}

	@Test
	void whatCannotBeReadIsTakenAsItIsOnItsOwn() {
		for (String odd : List.of("unknown", "", "300.1.1.1", "1.2.3", "01.2.3.4", "2001:db8::1::2", "12345::",
				"1:2:3:4:5:6:7:8:9", "1.2.3.4::", "::g")) {
			assertThat(Networks.of(odd)).as(odd).isEqualTo(odd);
			assertThat(Networks.rateLimitKey(odd)).as(odd).isEqualTo(odd);
			assertThat(Networks.covering(odd)).as(odd).containsExactly(odd);
		}
	}

	@Test
	void aBanSubjectIsOneFormPerAddressOrNetwork() {
		assertThat(Networks.subject(" 203.0.113.7 ")).isEqualTo("203.0.113.7");
		assertThat(Networks.subject("203.0.113.7/32")).isEqualTo("203.0.113.7");
		assertThat(Networks.subject("203.0.113.7/24")).isEqualTo("203.0.113.0/24");
		assertThat(Networks.subject("10.1.2.3/8")).isEqualTo("10.0.0.0/8");
		// an IPv6 address is never banned alone: its owner has the whole /64
		assertThat(Networks.subject("2001:DB8:1:2::1")).isEqualTo("2001:db8:1:2::/64");
		assertThat(Networks.subject("2001:db8:1:2::1/128")).isEqualTo("2001:db8:1:2::/64");
		assertThat(Networks.subject("2001:db8:1:2::/48")).isEqualTo("2001:db8:1::/48");
		assertThat(Networks.subject("::ffff:203.0.113.7")).isEqualTo("203.0.113.7");
	}

	@Test
	void aBanSubjectMustBeAnAddressOrANetworkNoWiderThanASlash8OrASlash16() {
		for (String bad : List.of("example.org", "300.1.1.1", "10.0.0.1/33", "10.0.0.1/", "10.0.0.1/x", "10.0.0.1/-1",
				"0.0.0.0/0", "10.0.0.0/7", "2001:db8::/15", "::/0", "2001:db8::1/129", "fe80::1%eth0", "")) {
			assertThatIllegalArgumentException().as(bad).isThrownBy(() -> Networks.subject(bad));
		}
	}

	@Test
	void everySubjectThatCoversAnAddressNarrowestFirst() {
		List<String> ipv4 = Networks.covering("203.0.113.7");
		assertThat(ipv4).hasSize(25)
			.startsWith("203.0.113.7", "203.0.113.6/31")
			.contains("203.0.113.0/24", "203.0.0.0/16")
			.endsWith("203.0.0.0/8");
		List<String> ipv6 = Networks.covering("2001:db8:1:2::9");
		assertThat(ipv6).hasSize(49).startsWith("2001:db8:1:2::/64").contains("2001:db8::/32").endsWith("2001::/16");
		// each subject as subject() writes it, so that a ban of any of them is found
		for (String subject : ipv4) {
			assertThat(Networks.subject(subject)).isEqualTo(subject);
		}
		for (String subject : ipv6) {
			assertThat(Networks.subject(subject)).isEqualTo(subject);
		}
	}

	@Test
	void theLongestRunOfZeroGroupsIsTheOneCompressed() {
		assertThat(Networks.of("1:0:0:2:3:4:5:6")).isEqualTo("1:0:0:2::/64");
		assertThat(Networks.of("1:0:0:0:ffff::1")).isEqualTo("1::/64");
		assertThat(Networks.of("0:0:0:1::")).isEqualTo("0:0:0:1::/64");
	}

}
