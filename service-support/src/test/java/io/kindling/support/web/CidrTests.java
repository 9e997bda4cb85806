package io.kindling.support.web;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CidrTests {

	@Test
	void aBlockHoldsTheAddressesUnderItsPrefix() throws Exception {
		Cidr block = Cidr.parse("10.1.0.0/16");

		assertThat(block.contains(InetAddress.getByName("10.1.255.7"))).isTrue();
		assertThat(block.contains(InetAddress.getByName("10.2.0.1"))).isFalse();
		assertThat(block.contains(InetAddress.getByName("::ffff:10.1.0.1"))).isTrue();
		assertThat(block.contains(InetAddress.getByName("2001:db8::1"))).isFalse();
		assertThat(Cidr.parse("2001:db8:1::/48").contains(InetAddress.getByName("2001:db8:1:ffff::9"))).isTrue();
		assertThat(Cidr.parse("2001:db8:1::/48").contains(InetAddress.getByName("2001:db8:2::9"))).isFalse();
		assertThat(Cidr.parse("127.0.0.2").contains(InetAddress.getByName("127.0.0.2"))).isTrue();
		assertThat(Cidr.parse("127.0.0.2").contains(InetAddress.getByName("127.0.0.1"))).isFalse();
		assertThat(Cidr.parse("0.0.0.0/0").contains(InetAddress.getByName("203.0.113.9"))).isTrue();
		assertThat(Cidr.parse("10.1.2.3/12").contains(InetAddress.getByName("10.15.0.0"))).isTrue();
	}

	@Test
	void onlyLiteralsAreAddressesNeverNamesToLookUp() {
		assertThat(Cidr.literal("203.0.113.9")).isPresent();
		assertThat(Cidr.literal("[2001:db8::1]")).isPresent();
		assertThat(Cidr.literal("localhost")).isEmpty();
		assertThat(Cidr.literal("example.com")).isEmpty();
		assertThat(Cidr.literal("256.0.0.1")).isEmpty();
		assertThat(Cidr.literal("1.2.3")).isEmpty();
		assertThat(Cidr.literal("1:2")).isEmpty();
		assertThat(Cidr.literal("")).isEmpty();
		assertThatIllegalArgumentException().isThrownBy(() -> Cidr.parse("10.0.0.0/33"));
		assertThatIllegalArgumentException().isThrownBy(() -> Cidr.parse("::/129"));
		assertThatIllegalArgumentException().isThrownBy(() -> Cidr.parse("10.0.0.0/x"));
		assertThatIllegalArgumentException().isThrownBy(() -> Cidr.parse("proxy.internal"));
	}

}
