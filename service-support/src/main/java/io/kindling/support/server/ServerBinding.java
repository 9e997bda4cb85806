package io.kindling.support.server;

import java.net.InetAddress;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The local address every server socket of a Kindling process listens on
 * ({@code kindling.bind-address}, one setting for every service): the HTTP port, which
 * the web edge binds, and any other socket a service opens (the relay's UDP wake-up
 * port).
 *
 * @param bindAddress the local address to listen on; unset, every interface
 */
@ConfigurationProperties("kindling")
public record ServerBinding(@Nullable InetAddress bindAddress) {
}
