-- A room formed in a fallback queue (people who opted in to anyone, past their own wait, whatever their topics):
-- its topic_id is the topic of the one who waited longest. `fallback` keeps its meaning, a size-3 queue's room of
-- two, so a room can be either, both or neither.
ALTER TABLE conversations
    ADD COLUMN topic_fallback BOOLEAN NOT NULL DEFAULT FALSE AFTER fallback;
