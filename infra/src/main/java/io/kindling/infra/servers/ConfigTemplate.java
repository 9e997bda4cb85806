package io.kindling.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's configuration from the repository's {@code config/} folder, each
 * {@code {{name}}} replaced by its value: the same files {@code ./kindling up} renders,
 * so the tests run a server as the stack does.
 */
public final class ConfigTemplate {

	private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)}}");

	private ConfigTemplate() {
	}

	/**
	 * The template {@code config/<name>} with its placeholders filled; fails on one left
	 * unfilled.
	 */
	public static String render(String name, Map<String, String> values) {
		String template;
		try {
			template = Files.readString(configDir().resolve(name));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("no template config/" + name, ex);
		}
		Matcher placeholders = PLACEHOLDER.matcher(template);
		StringBuilder rendered = new StringBuilder();
		while (placeholders.find()) {
			String value = values.get(placeholders.group(1));
			if (value == null) {
				throw new IllegalArgumentException("config/" + name + " wants a value for " + placeholders.group());
			}
			placeholders.appendReplacement(rendered, Matcher.quoteReplacement(value));
		}
		placeholders.appendTail(rendered);
		return rendered.toString();
	}

	/**
	 * {@code config/} under {@code kindling.root} (set by the build and by
	 * {@code ./kindling bench}), else in the nearest folder up from the working directory
	 * that has one.
	 */
	static Path configDir() {
		String root = System.getProperty("kindling.root");
		if (root != null) {
			return Path.of(root, "config");
		}
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isDirectory(dir.resolve("config")) && Files.exists(dir.resolve("kindling"))) {
				return dir.resolve("config");
			}
		}
		throw new IllegalStateException("no config/ folder: set -Dkindling.root to the repository's root");
	}

}
