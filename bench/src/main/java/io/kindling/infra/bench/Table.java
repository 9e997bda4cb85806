package io.kindling.infra.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A bench's table as Markdown, ready to paste into docs/performance.md: each column as
 * wide as its widest cell, the columns {@link #right} named aligned right.
 *
 * <pre>
 * Table table = Table.columns("path", "swipes/s", "p99 ms").right(1, 2);
 * table.row("raw JDBC", "3,891", "20.9");
 * table.print();
 * </pre>
 */
public final class Table {

	private final List<String> titles;

	private final boolean[] right;

	private final List<List<String>> rows = new ArrayList<>();

	private Table(List<String> titles) {
		this.titles = titles;
		this.right = new boolean[titles.size()];
	}

	public static Table columns(String... titles) {
		return new Table(List.of(titles));
	}

	/** Aligns these columns (from 0) right: the figures. */
	public Table right(int... columns) {
		Arrays.stream(columns).forEach((column) -> this.right[column] = true);
		return this;
	}

	/** A row, one cell per column; each cell as {@link String#valueOf}. */
	public Table row(Object... cells) {
		if (cells.length != this.titles.size()) {
			throw new IllegalArgumentException(
					"a row of " + cells.length + " cells in a table of " + this.titles.size() + " columns");
		}
		this.rows.add(Arrays.stream(cells).map(String::valueOf).toList());
		return this;
	}

	/** Prints the table to standard output. */
	public void print() {
		int[] widths = new int[this.titles.size()];
		Arrays.fill(widths, 3);
		for (List<String> row : all()) {
			for (int i = 0; i < widths.length; i++) {
				widths[i] = Math.max(widths[i], row.get(i).length());
			}
		}
		List<String> rule = new ArrayList<>();
		for (int i = 0; i < widths.length; i++) {
			rule.add(this.right[i] ? "-".repeat(widths[i] - 1) + ":" : "-".repeat(widths[i]));
		}
		print(this.titles, widths);
		print(rule, widths);
		this.rows.forEach((row) -> print(row, widths));
	}

	private List<List<String>> all() {
		List<List<String>> all = new ArrayList<>(this.rows);
		all.add(this.titles);
		return all;
	}

	private void print(List<String> cells, int[] widths) {
		StringBuilder line = new StringBuilder("|");
		for (int i = 0; i < widths.length; i++) {
			String padding = " ".repeat(Math.max(0, widths[i] - cells.get(i).length()));
			line.append(' ').append(this.right[i] ? padding + cells.get(i) : cells.get(i) + padding).append(" |");
		}
		System.out.println(line);
	}

}
