package io.kindling.infra.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class LogTailTests {

	@TempDir
	Path dir;

	@Test
	void aLogBiggerThanWhatIsReadStillGivesItsLastFortyWholeLines() throws IOException {
		Path log = this.dir.resolve("big.log");
		StringBuilder text = new StringBuilder();
		for (int i = 1; i <= 20_000; i++) {
			text.append("line ").append(i).append('\n');
		}
		Files.writeString(log, text);

		String tail = LogTail.lastLines(log);

		assertThat(Files.size(log)).isGreaterThan(64 * 1024);
		assertThat(tail.lines()).hasSize(41).first().isEqualTo("the last 40 lines of " + log + ":");
		assertThat(tail.lines().skip(1)).first().isEqualTo("line 19961");
		assertThat(tail).endsWith("\nline 20000");
	}

	@Test
	void longLinesAreCutFromTheFrontSoTheEndIsKept() throws IOException {
		Path log = this.dir.resolve("long.log");
		Files.writeString(log, "x".repeat(50_000) + "\nthe reason it ended\n");

		String tail = LogTail.lastLines(log);

		assertThat(tail).startsWith("the last 2 lines of " + log + ":\n[...]x")
			.endsWith("x\nthe reason it ended")
			.hasSizeLessThan(LogTail.MAX_CHARS + 200);
	}

	@Test
	void bytesThatAreNotUtf8DoNotHideTheRest() throws IOException {
		Path log = this.dir.resolve("binary.log");
		Files.write(log, new byte[] { 'a', (byte) 0xff, (byte) 0xfe, '\n', 'o', 'k', '\n' });

		assertThat(LogTail.lastLines(log)).endsWith(":\na\uFFFD\uFFFD\nok");
	}

	@Test
	void aMissingOrEmptyLogIsSaidToBe() throws IOException {
		Path empty = Files.createFile(this.dir.resolve("empty.log"));

		assertThat(LogTail.lastLines(empty)).isEqualTo(empty + " is empty");
		assertThat(LogTail.lastLines(this.dir.resolve("none.log")))
			.startsWith("no log at " + this.dir.resolve("none.log"));
	}

}
