package io.kindling.infra.servers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * Finding free loopback ports and waiting for servers to answer on them.
 * <p>
 * A port is picked some seconds before its server binds it. Picked from the kernel's
 * ephemeral range (what binding port 0 gives), it could meanwhile become the local port
 * of an outgoing connection, and a server that then binds it fails with "address already
 * in use": a Galera joiner's rsync daemon did, and the node died. So ports are picked at
 * random below that range, where the kernel never puts an outgoing connection, and never
 * twice in one JVM.
 */
public final class FreePorts {

	private static final int LOWEST = 10_000;

	/** Linux's default first ephemeral port, when the kernel's setting cannot be read. */
	private static final int DEFAULT_FIRST_EPHEMERAL = 32_768;

	private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

	private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

	private FreePorts() {
	}

	public static int pick() {
		return pick(0);
	}

	/**
	 * A free port whose {@code port + offset} is free as well, both below the ephemeral
	 * range: a Redis Cluster node's bus listens on port + 10000.
	 */
	public static int pick(int offset) {
		int highest = firstEphemeral() - 1 - offset;
		if (highest - LOWEST < 1_000) {
			// an ephemeral range that starts this low leaves no room below it
			highest = 65_535 - offset;
		}
		for (int attempt = 0; attempt < 1_000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST, highest + 1);
			if (!handedOut.contains(port) && !handedOut.contains(port + offset) && isFree(port)
					&& (offset == 0 || isFree(port + offset)) && handedOut.add(port)) {
				handedOut.add(port + offset);
				return port;
			}
		}
		throw new IllegalStateException("no free loopback port between " + LOWEST + " and " + highest);
	}

	static int firstEphemeral() {
		try {
			// read line-wise: this proc file may report a size shorter than its text
			return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).strip().split("\\s+")[0]);
		}
		catch (IOException | RuntimeException ex) {
			return DEFAULT_FIRST_EPHEMERAL;
		}
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	public static boolean isOpen(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Polls until the condition holds; fails with what was awaited when it does not in
	 * time.
	 */
	public static void await(String what, Duration timeout, BooleanSupplier condition) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("timed out after " + timeout.toSeconds() + " s waiting for " + what);
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted waiting for " + what, ex);
			}
		}
	}

}
