-- idx_outbox_unpublished (published_at, key_hash, id) already leads with published_at, so it serves
-- the retention cleanup's "published_at < cutoff" range as well; the second index only cost every
-- insert and every publish (which rewrites published_at) one more B-tree change.
ALTER TABLE room_outbox DROP KEY idx_outbox_published_at;
