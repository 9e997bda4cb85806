package io.kindling.matching.report;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.kindling.matching.MatchingProperties;
import io.kindling.matching.ban.SessionBans;
import io.kindling.matching.chat.RoomChat;
import io.kindling.outbox.OutboxEvent;
import io.kindling.outbox.OutboxWriter;
import io.kindling.outbox.SqlTime;
import io.kindling.support.web.Networks;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The {@code room_reports} table, and the rule: reporters from {@code reports-to-ban}
 * distinct networks (IPv4 /24, IPv6 /64) reporting a session within {@code report-window}
 * ban it, and, for {@code report-ban-network-for}, the network it joined that room from.
 * Sessions cost nothing, networks do: throwaway sessions from one network count once.
 */
@Repository
class RoomReports {

	private final JdbcClient jdbc;

	private final SessionBans bans;

	private final OutboxWriter outbox;

	private final JsonMapper json;

	private final int reportsToBan;

	private final Duration window;

	private final Duration banFor;

	private final Duration networkBanFor;

	private final RoomChat chat;

	RoomReports(JdbcClient jdbc, SessionBans bans, OutboxWriter outbox, JsonMapper json, MatchingProperties properties,
			RoomChat chat) {
		this.chat = chat;
		this.jdbc = jdbc;
		this.bans = bans;
		this.outbox = outbox;
		this.json = json;
		this.reportsToBan = properties.reportsToBan();
		this.window = properties.reportWindow();
		// no session lives longer than this, so neither need its ban
		this.banFor = properties.sessionTtl();
		this.networkBanFor = properties.reportBanNetworkFor();
	}

	/**
	 * Records the reporter's report of the others of its latest room, and bans those it
	 * brings to {@code reports-to-ban} reporter networks. Read committed, after locking
	 * each reported session's row: the count then sees every report committed before, and
	 * two reports of one session are counted one after the other.
	 * @param reporterAddress the reporter's address, counted by its network
	 * @throws io.kindling.support.web.Refused {@code no-room} when the reporter never sat
	 * in a room
	 */
	@Transactional(isolation = Isolation.READ_COMMITTED)
	public Recorded record(String reporterKey, String reporterAddress, ReportReason reason, Instant now) {
		LastRoom room = lastRoom(reporterKey);
		List<Participant> others = this.jdbc.sql("""
				SELECT participant_key, network FROM conversation_participants
				WHERE conversation_id = :conversationId AND participant_key <> :reporter
				ORDER BY participant_key
				""").param("conversationId", room.id()).param("reporter", reporterKey).query(Participant.class).list();
		for (Participant reported : others) {
			this.jdbc.sql("""
					INSERT INTO reported_sessions (reported_key, last_reported_at) VALUES (:key, FROM_UNIXTIME(:now))
					ON DUPLICATE KEY UPDATE last_reported_at = VALUES(last_reported_at)
					""").param("key", reported.participantKey()).param("now", SqlTime.epochSeconds(now)).update();
		}
		List<Participant> reportedNow = new ArrayList<>();
		for (Participant reported : others) {
			int added = this.jdbc.sql("""
					INSERT IGNORE INTO room_reports
					  (conversation_id, reporter_key, reporter_network, reported_key, reason, reported_at)
					VALUES (:conversationId, :reporter, :reporterNetwork, :reported, :reason, FROM_UNIXTIME(:now))
					""")
				.param("conversationId", room.id())
				.param("reporter", reporterKey)
				.param("reporterNetwork", Networks.of(reporterAddress))
				.param("reported", reported.participantKey())
				.param("reason", reason.name())
				.param("now", SqlTime.epochSeconds(now))
				.update();
			if (added > 0) {
				reportedNow.add(reported);
				this.chat.keepEvidence(room.id(), reported.participantKey());
			}
		}
		if (reportedNow.isEmpty()) {
			return new Recorded(room.roomId(), others.size(), true, List.of(), false);
		}
		appendReported(room, reporterKey, reportedNow.stream().map(Participant::participantKey).toList(), reason, now);
		List<String> banned = new ArrayList<>();
		boolean networksBanned = false;
		for (Participant reported : reportedNow) {
			// a report from before networks were kept counts as its reporter's own
			// network
			int networks = this.jdbc.sql("""
					SELECT COUNT(DISTINCT COALESCE(reporter_network, reporter_key)) FROM room_reports
					WHERE reported_key = :reported AND reported_at > FROM_UNIXTIME(:since)
					""")
				.param("reported", reported.participantKey())
				.param("since", SqlTime.epochSeconds(now.minus(this.window)))
				.query(Integer.class)
				.single();
			if (networks >= this.reportsToBan
					&& this.bans.banReported(reported.participantKey(), networks, now.plus(this.banFor))) {
				banned.add(reported.participantKey());
				if (reported.network() != null && !this.networkBanFor.isZero()) {
					networksBanned |= this.bans.banNetwork(reported.network(), now.plus(this.networkBanFor));
				}
			}
		}
		return new Recorded(room.roomId(), others.size(), false, banned, networksBanned);
	}

	/**
	 * A reported participant of the room, and the network it joined the room from (null
	 * for a room written before networks were kept).
	 */
	private record Participant(String participantKey, @Nullable String network) {

	}

	/** The reporter's current or last room: its latest conversation. */
	private LastRoom lastRoom(String reporterKey) {
		return this.jdbc.sql("""
				SELECT c.id, c.room_id FROM conversation_participants p
				JOIN conversations c ON c.id = p.conversation_id
				WHERE p.participant_key = :reporter
				ORDER BY c.formed_at DESC, c.id DESC
				LIMIT 1
				""")
			.param("reporter", reporterKey)
			.query(LastRoom.class)
			.optional()
			.orElseThrow(() -> ReportRefusals.NO_ROOM
				.refused("this session has not been in a room; there is nobody to report"));
	}

	/**
	 * {@code ROOM_REPORTED}, for moderation, which reviews reports outside this service.
	 */
	private void appendReported(LastRoom room, String reporterKey, List<String> reported, ReportReason reason,
			Instant now) {
		UUID eventId = UUID.randomUUID();
		RoomReported event = new RoomReported(eventId.toString(), "ROOM_REPORTED", room.roomId(), room.roomId(),
				room.id(), reporterKey, List.copyOf(reported), reason.name(), now, now);
		this.outbox
			.append(new OutboxEvent(eventId, "ROOM_REPORTED", room.roomId(), this.json.writeValueAsString(event), now));
	}

	private record LastRoom(long id, String roomId) {

	}

	/**
	 * @param reported how many others the report names
	 * @param repeated true when the reporter had reported all of them from this room
	 * @param banned the sessions this report banned
	 * @param networksBanned true when it banned the network of one of them
	 */
	record Recorded(String roomId, int reported, boolean repeated, List<String> banned, boolean networksBanned) {

	}

	/** The {@code ROOM_REPORTED} payload: sessions by their keys, never their tokens. */
	record RoomReported(String eventId, String eventType, String eventKey, String roomId, long conversationId,
			String reporterKey, List<String> reportedKeys, String reason, Instant reportedAt, Instant occurredAt) {

	}

}
