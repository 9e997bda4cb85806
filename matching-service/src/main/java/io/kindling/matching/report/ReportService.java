package io.kindling.matching.report;

import java.time.Clock;
import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.kindling.matching.ban.SessionBans;
import io.kindling.matching.session.Session;

import org.springframework.stereotype.Service;

/**
 * A report names the others of the reporter's current or last room; the reports and the
 * bans they cause commit together, and only then do the bans bite (queue and cache).
 */
@Service
class ReportService {

	private final RoomReports reports;

	private final SessionBans bans;

	private final Clock clock;

	ReportService(RoomReports reports, SessionBans bans, Clock clock) {
		this.reports = reports;
		this.bans = bans;
		this.clock = clock;
	}

	/**
	 * @param address the reporter's address: reports count once per network
	 */
	Reported report(Session session, String address, ReportReason reason) {
		Instant now = this.clock.instant();
		RoomReports.Recorded recorded = this.reports.record(session.key(), address, reason, now);
		if (!recorded.banned().isEmpty()) {
			this.bans.enforce(recorded.banned(), recorded.networksBanned());
		}
		return new Reported(recorded.roomId(), recorded.reported(), recorded.repeated());
	}

	/**
	 * @param roomId the room reported from
	 * @param reported how many of its others the report names
	 * @param repeated true when this session had reported them from this room already
	 */
	record Reported(String roomId, int reported, @JsonIgnore boolean repeated) {

	}

}
