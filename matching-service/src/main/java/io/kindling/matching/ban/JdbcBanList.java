package io.kindling.matching.ban;

import java.sql.Timestamp;
import java.time.Clock;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class JdbcBanList implements BanList {

	private final JdbcClient jdbc;

	private final Clock clock;

	JdbcBanList(JdbcClient jdbc, Clock clock) {
		this.jdbc = jdbc;
		this.clock = clock;
	}

	@Override
	public boolean isBanned(String sessionKey, String address) {
		return this.jdbc.sql("""
				SELECT COUNT(*) FROM bans
				WHERE ((ban_type = 'SESSION' AND subject = :sessionKey) OR (ban_type = 'IP' AND subject = :address))
				  AND (expires_at IS NULL OR expires_at > :now)
				""")
			.param("sessionKey", sessionKey)
			.param("address", address)
			.param("now", Timestamp.from(this.clock.instant()))
			.query(Long.class)
			.single() > 0;
	}

}
