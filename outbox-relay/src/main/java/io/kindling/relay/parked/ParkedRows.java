package io.kindling.relay.parked;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.kindling.relay.source.OutboxSource;
import io.kindling.relay.source.OutboxSources;

import org.springframework.stereotype.Service;

/** Lists parked rows of every source and puts one back in line. */
@Service
class ParkedRows {

	private final OutboxSources sources;

	ParkedRows(OutboxSources sources) {
		this.sources = sources;
	}

	List<ParkedRow> list(int limit) {
		List<ParkedRow> parked = new ArrayList<>();
		for (OutboxSource source : this.sources.ready()) {
			parked.addAll(source.jdbc()
				.sql("""
						SELECT id, event_id, event_type, event_key, attempts, last_error, created_at, parked_at
						FROM %s
						WHERE published_at IS NULL AND parked_at IS NOT NULL
						ORDER BY id
						LIMIT :limit
						""".formatted(source.table()))
				.param("limit", limit)
				.query((rs, rowNum) -> new ParkedRow(rs.getString("event_id"), source.name(), rs.getLong("id"),
						rs.getString("event_type"), rs.getString("event_key"), rs.getInt("attempts"),
						rs.getString("last_error"), rs.getTimestamp("created_at").toInstant(),
						rs.getTimestamp("parked_at").toInstant()))
				.list());
		}
		parked.sort(Comparator.comparing(ParkedRow::parkedAt));
		return parked.size() > limit ? parked.subList(0, limit) : parked;
	}

	/**
	 * Unparks the row with its attempts reset; the relay publishes it with its next
	 * batch.
	 */
	ParkedRow retry(String eventId) {
		ParkedRow row = find(eventId);
		for (OutboxSource source : this.sources.ready()) {
			if (source.name().equals(row.source())) {
				int updated = source.jdbc().sql("""
						UPDATE %s
						SET parked_at = NULL, attempts = 0, next_attempt_at = NULL
						WHERE event_id = :eventId AND parked_at IS NOT NULL AND published_at IS NULL
						""".formatted(source.table())).param("eventId", eventId).update();
				if (updated == 1) {
					return row;
				}
			}
		}
		throw ParkedRefusals.notFound(eventId);
	}

	private ParkedRow find(String eventId) {
		for (OutboxSource source : this.sources.ready()) {
			List<ParkedRow> rows = source.jdbc()
				.sql("""
						SELECT id, event_id, event_type, event_key, attempts, last_error, created_at, parked_at
						FROM %s
						WHERE event_id = :eventId AND published_at IS NULL AND parked_at IS NOT NULL
						""".formatted(source.table()))
				.param("eventId", eventId)
				.query((rs, rowNum) -> new ParkedRow(rs.getString("event_id"), source.name(), rs.getLong("id"),
						rs.getString("event_type"), rs.getString("event_key"), rs.getInt("attempts"),
						rs.getString("last_error"), rs.getTimestamp("created_at").toInstant(),
						rs.getTimestamp("parked_at").toInstant()))
				.list();
			if (!rows.isEmpty()) {
				return rows.get(0);
			}
		}
		throw ParkedRefusals.notFound(eventId);
	}

}
