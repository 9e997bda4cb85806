package io.kindling.relay;

import java.net.InetAddress;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The address every server socket of a Kindling process listens on
 * ({@code kindling.bind-address}, shared by all services): here the relay's UDP wake-up
 * socket.
 *
 * @param bindAddress the local address to listen on; unset, every interface
 */
@ConfigurationProperties("kindling")
public record ServerBinding(@Nullable InetAddress bindAddress) {
}
