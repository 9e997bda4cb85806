package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real MariaDB server (MySQL wire protocol) on a loopback port with its own data dir.
 * As root it runs as the {@code mysql} user, which is why the data dir is handed to that
 * user.
 */
public final class MariaDbServer extends ServerProcess {

	public static final String USER = "kindling";

	public static final String PASSWORD = "kindling";

	private final int port;

	private final Path dataDir;

	private final Path socket;

	public MariaDbServer(Path workDir, int port) {
		super("mariadb", workDir);
		this.port = port;
		this.dataDir = workDir.resolve("data");
		this.socket = workDir.resolve("mariadb.sock");
	}

	public int port() {
		return this.port;
	}

	public String jdbcUrl(String database) {
		return "jdbc:mysql://127.0.0.1:" + this.port + "/" + database
				+ "?useSSL=false&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true";
	}

	@Override
	protected void prepare() {
		initialise(this.workDir, this.dataDir, logFile());
	}

	/**
	 * Makes a fresh data dir (once: nothing happens when it has its system tables), owned
	 * by the mysql user when run as root; root logs in over the socket only.
	 */
	static void initialise(Path workDir, Path dataDir, Path log) {
		if (Files.exists(dataDir.resolve("mysql"))) {
			return;
		}
		try {
			Files.createDirectories(dataDir);
			openUp(workDir);
			handToMysqlUser(workDir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<String> install = new ArrayList<>(List.of(binary("mariadb-install-db"), "--no-defaults",
				"--datadir=" + dataDir, "--auth-root-authentication-method=socket", "--skip-test-db"));
		if (isRoot()) {
			install.add("--user=mysql");
		}
		run(install, log);
	}

	@Override
	protected List<String> command() {
		List<String> command = new ArrayList<>(List.of(binary("mariadbd"), "--no-defaults", "--datadir=" + this.dataDir,
				"--port=" + this.port, "--bind-address=127.0.0.1", "--socket=" + this.socket,
				"--pid-file=" + this.workDir.resolve("mariadb.pid"), "--skip-name-resolve", "--skip-log-bin",
				"--innodb-buffer-pool-size=256M", "--max-connections=500", "--character-set-server=utf8mb4",
				"--collation-server=utf8mb4_unicode_ci"));
		if (isRoot()) {
			command.add("--user=mysql");
		}
		return command;
	}

	@Override
	protected void awaitReady() {
		awaitWhileRunning("mariadb on port " + this.port, Duration.ofSeconds(60),
				() -> Files.exists(this.socket) && FreePorts.isOpen(this.port));
	}

	/** Creates the database (if missing) and grants the app user everything on it. */
	public void createDatabase(String database) {
		sql(createDatabaseSql(database));
	}

	/** Runs statements as root over the socket (root has socket authentication only). */
	public void sql(String statements) {
		sql(this.socket, statements, logFile());
	}

	static void sql(Path socket, String statements, Path log) {
		run(List.of(binary("mariadb"), "--no-defaults", "--socket=" + socket, "-uroot", "-e", statements), log);
	}

	/**
	 * The statements' tab-separated output without column names, as root over the socket;
	 * fails when the server does not answer.
	 */
	static String query(Path socket, String statements) {
		return output(List.of(binary("mariadb"), "--no-defaults", "--socket=" + socket, "--connect-timeout=2", "-uroot",
				"-N", "-B", "-e", statements), Duration.ofSeconds(10));
	}

	/**
	 * The app user, as every service logs in, from the loopback address and the socket.
	 */
	static String createAppUser() {
		return "CREATE USER IF NOT EXISTS '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + PASSWORD + "';"
				+ "CREATE USER IF NOT EXISTS '" + USER + "'@'localhost' IDENTIFIED BY '" + PASSWORD + "';";
	}

	/**
	 * The statements that create the database (if missing) and grant the app user
	 * everything on it.
	 */
	static String createDatabaseSql(String database) {
		return "CREATE DATABASE IF NOT EXISTS `" + database + "`;" + createAppUser() + "GRANT ALL ON `" + database
				+ "`.* TO '" + USER + "'@'127.0.0.1';" + "GRANT ALL ON `" + database + "`.* TO '" + USER
				+ "'@'localhost';";
	}

	static boolean isRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	static String binary(String name) {
		for (String dir : List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin")) {
			Path candidate = Path.of(dir, name);
			if (Files.isExecutable(candidate)) {
				return candidate.toString();
			}
		}
		return name;
	}

	/**
	 * The mysql user must be able to reach the data dir: open the private temp dirs
	 * between it and the system temp dir (never the system temp dir itself).
	 */
	private static void openUp(Path dir) throws IOException {
		Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
		Path current = dir.toAbsolutePath().normalize();
		Files.setPosixFilePermissions(current, PosixFilePermissions.fromString("rwxr-xr-x"));
		for (current = current.getParent(); current != null && current.startsWith(tmp)
				&& !current.equals(tmp); current = current.getParent()) {
			Files.setPosixFilePermissions(current, PosixFilePermissions.fromString("rwxr-xr-x"));
		}
	}

	static void handToMysqlUser(Path dir) throws IOException {
		if (!isRoot()) {
			return;
		}
		UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
		var mysql = users.lookupPrincipalByName("mysql");
		try (Stream<Path> paths = Files.walk(dir)) {
			for (Path path : paths.toList()) {
				Files.setOwner(path, mysql);
			}
		}
	}

}
