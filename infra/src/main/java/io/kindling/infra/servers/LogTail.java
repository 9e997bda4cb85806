package io.kindling.infra.servers;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Why a process that should be serving is not, for a failure message: whether it has
 * exited (and with which code) and the last lines of its log. A test's servers log into
 * its temporary directory, which is deleted when the test ends, so the message has to
 * carry what the log said.
 */
final class LogTail {

	static final int LINES = 40;

	/** A stack trace or a JSON log line can make 40 lines long; the end matters most. */
	static final int MAX_CHARS = 6000;

	/** Enough for 40 lines of any log we start; a big log is not read whole. */
	private static final int READ_BYTES = 64 * 1024;

	private LogTail() {
	}

	/**
	 * {@code exited with code 3; the last 40 lines of <log>:} and those lines, or
	 * {@code still running (pid 42); ...}.
	 */
	static String describe(Process process, Path log) {
		String state = process.isAlive() ? "still running (pid " + process.pid() + ")"
				: "exited with code " + process.exitValue();
		return state + "; " + lastLines(log);
	}

	/**
	 * The last {@link #LINES} lines of the log, cut to their last {@link #MAX_CHARS}
	 * characters.
	 */
	static String lastLines(Path log) {
		String text;
		try {
			text = readEnd(log);
		}
		catch (IOException ex) {
			return "no log at " + log + " (" + ex + ")";
		}
		List<String> lines = text.lines().toList();
		if (lines.isEmpty()) {
			return log + " is empty";
		}
		List<String> last = lines.subList(Math.max(0, lines.size() - LINES), lines.size());
		String joined = String.join("\n", last);
		if (joined.length() > MAX_CHARS) {
			joined = "[...]" + joined.substring(joined.length() - MAX_CHARS);
		}
		return ((last.size() == 1) ? "the last line of " : "the last " + last.size() + " lines of ") + log + ":\n"
				+ joined;
	}

	/**
	 * The end of the file, decoded leniently (a server may log bytes that are not UTF-8),
	 * from the first whole line on.
	 */
	private static String readEnd(Path log) throws IOException {
		try (SeekableByteChannel channel = Files.newByteChannel(log)) {
			long start = Math.max(0, channel.size() - READ_BYTES);
			ByteBuffer buffer = ByteBuffer.allocate((int) (channel.size() - start));
			channel.position(start);
			while (buffer.hasRemaining() && channel.read(buffer) > 0) {
				// read on
			}
			String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
			return (start == 0) ? text : text.substring(text.indexOf('\n') + 1);
		}
	}

}
