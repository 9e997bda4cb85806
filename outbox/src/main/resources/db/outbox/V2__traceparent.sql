-- The W3C trace context (version 00: 55 characters) of the request that caused the event, captured by
-- OutboxWriter and sent by the relay as the record's traceparent header; NULL when no trace was active.
-- A nullable column at the end: MariaDB 10.3+ and MySQL 8.0 add it in place, without copying the rows.
ALTER TABLE ${outbox_table} ADD COLUMN traceparent VARCHAR(55) NULL;
