package io.kindling.relay;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP pass-through between one relay and MariaDB that a test can hold shut in one
 * direction: while held, the relay's next statement waits at the gate and the database's
 * answers still come back. A relay held between its claim and its mark sends the claimed
 * rows to Kafka and then waits to mark them: the moment a crash test needs, without
 * racing the relay for it.
 */
final class DatabaseGate implements AutoCloseable {

	private final ServerSocket listener;

	private final int databasePort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final Object lock = new Object();

	private boolean held;

	private volatile boolean closed;

	DatabaseGate(int databasePort) {
		this.databasePort = databasePort;
		try {
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread.ofPlatform().daemon().name("gate-accept").start(this::accept);
	}

	/** The JDBC URL of this database through the gate. */
	String jdbcUrl(String directUrl) {
		return directUrl.replace("127.0.0.1:" + this.databasePort + "/",
				"127.0.0.1:" + this.listener.getLocalPort() + "/");
	}

	/** From now on, nothing the relay sends reaches the database. */
	void hold() {
		synchronized (this.lock) {
			this.held = true;
		}
	}

	/** What the relay sent while held goes through, and so does everything after. */
	void release() {
		synchronized (this.lock) {
			this.held = false;
			this.lock.notifyAll();
		}
	}

	/**
	 * Drops every connection: the database sees its sessions end and rolls back their
	 * transactions, as it would for a relay that died.
	 */
	@Override
	public void close() {
		this.closed = true;
		release();
		closeQuietly(this.listener);
		this.sockets.forEach(DatabaseGate::closeQuietly);
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket relay = this.listener.accept();
				Socket database = new Socket(InetAddress.getLoopbackAddress(), this.databasePort);
				this.sockets.add(relay);
				this.sockets.add(database);
				Thread.ofPlatform().daemon().name("gate-to-db").start(() -> pump(relay, database, true));
				Thread.ofPlatform().daemon().name("gate-to-relay").start(() -> pump(database, relay, false));
			}
			catch (IOException ex) {
				if (!this.closed) {
					throw new UncheckedIOException(ex);
				}
			}
		}
	}

	private void pump(Socket from, Socket to, boolean gated) {
		byte[] buffer = new byte[16 * 1024];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				if (gated) {
					awaitOpen();
				}
				if (this.closed) {
					return;
				}
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (IOException ex) {
			// one side went away: so does the other
		}
		finally {
			closeQuietly(from);
			closeQuietly(to);
		}
	}

	private void awaitOpen() {
		synchronized (this.lock) {
			while (this.held && !this.closed) {
				try {
					this.lock.wait(100);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// closing anyway
		}
	}

}
