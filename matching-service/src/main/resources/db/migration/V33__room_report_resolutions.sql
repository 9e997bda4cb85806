-- The moderators' queue of room reports: a report is open until resolved, by BAN (the reported session is banned,
-- and every other open report about it is resolved with it) or DISMISS. Open reports are read oldest first and
-- resolved ones most recently resolved first, each from its own index.
ALTER TABLE room_reports
    ADD COLUMN resolved_at     TIMESTAMP(6)  NULL,
    ADD COLUMN resolution      VARCHAR(16)   NULL,
    ADD COLUMN resolution_note VARCHAR(1000) NULL,
    ADD CONSTRAINT ck_room_reports_resolution
        CHECK ((resolved_at IS NULL AND resolution IS NULL)
            OR (resolved_at IS NOT NULL AND resolution IN ('BAN', 'DISMISS'))),
    ADD KEY idx_room_reports_open (resolved_at, reported_at),
    ADD KEY idx_room_reports_resolved (resolved_at, id);
