-- Reports count once per reporter network, and a ban made by reports also bans, for a while, the network the banned
-- session joined its room from (kindling.matching.report-ban-network-for). A network is an IPv4 /24 or an IPv6 /64 in
-- CIDR text (203.0.113.0/24, 2001:db8:1:2::/64), never a whole address. NULL on rows written before: a report
-- without one counts as its reporter's own network, a participant without one bans no network.
ALTER TABLE conversation_participants ADD COLUMN network VARCHAR(64) NULL;
ALTER TABLE room_reports ADD COLUMN reporter_network VARCHAR(64) NULL;
