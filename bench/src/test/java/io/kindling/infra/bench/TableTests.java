package io.kindling.infra.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TableTests {

	@Test
	void printsMarkdownWithEachColumnAsWideAsItsWidestCellAndTheFiguresAlignedRight() {
		Table table = Table.columns("path", "swipes/s").right(1);
		table.row("raw JDBC", "3,891");
		table.row("HTTP", "2,618 000");

		assertThat(printed(table)).containsExactly("| path     |  swipes/s |", "| -------- | --------: |",
				"| raw JDBC |     3,891 |", "| HTTP     | 2,618 000 |");
	}

	@Test
	void aNarrowColumnStillHasARuleOfThree() {
		Table table = Table.columns("n").right(0);
		table.row(7);

		assertThat(printed(table)).containsExactly("|   n |", "| --: |", "|   7 |");
	}

	@Test
	void refusesARowOfTheWrongLength() {
		Table table = Table.columns("a", "b");

		assertThatIllegalArgumentException().isThrownBy(() -> table.row("only one"));
	}

	private static List<String> printed(Table table) {
		PrintStream out = System.out;
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
		try {
			table.print();
		}
		finally {
			System.setOut(out);
		}
		return bytes.toString(StandardCharsets.UTF_8).lines().toList();
	}

}
