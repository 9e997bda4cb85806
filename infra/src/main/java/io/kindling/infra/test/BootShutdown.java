package io.kindling.infra.test;

import org.springframework.boot.SpringApplication;

/**
 * Spring Boot's shutdown handlers, when Boot is on the test class path: they run at the
 * JVM's exit once Boot has closed every application context it started, the cached test
 * contexts included.
 */
final class BootShutdown {

	private BootShutdown() {
	}

	/**
	 * Runs {@code action} at the JVM's exit after Boot's contexts closed.
	 * @return false, having done nothing, without Spring Boot on the class path
	 */
	static boolean runAfterContextsClose(Runnable action) {
		if (!onClassPath()) {
			return false;
		}
		Handlers.add(action);
		return true;
	}

	private static boolean onClassPath() {
		try {
			Class.forName("org.springframework.boot.SpringApplication", false, BootShutdown.class.getClassLoader());
			return true;
		}
		catch (ClassNotFoundException | LinkageError ex) {
			return false;
		}
	}

	/** Loaded only once Boot is known to be there. */
	private static final class Handlers {

		static void add(Runnable action) {
			SpringApplication.getShutdownHandlers().add(action);
		}

	}

}
