package io.kindling.swipe.profile;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

@Repository
class JdbcProfileDirectory implements ProfileDirectory {

	static final String COLUMNS = """
			user_id, display_name, gender, interested_in, birth_date, lat, lon, geohash, age_min, age_max,
			max_distance_km, expand_when_out, desirability, created_at, updated_at, last_active_at""";

	/**
	 * Ids known to have a profile. Profiles are never deleted, so a yes stays true and
	 * needs no expiry; a no is not remembered (the profile may be saved a moment later).
	 */
	private final Cache<Long, Boolean> known = Caffeine.newBuilder().maximumSize(500_000).build();

	private final JdbcClient jdbc;

	JdbcProfileDirectory(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	public Optional<Profile> find(long userId) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM profiles WHERE user_id = :userId")
			.param("userId", userId)
			.query(JdbcProfileDirectory::profile)
			.optional();
	}

	@Override
	public boolean exists(long userId) {
		if (this.known.getIfPresent(userId) != null) {
			return true;
		}
		boolean exists = this.jdbc.sql("SELECT COUNT(*) FROM profiles WHERE user_id = :userId")
			.param("userId", userId)
			.query(Long.class)
			.single() > 0;
		if (exists) {
			this.known.put(userId, Boolean.TRUE);
		}
		return exists;
	}

	@Override
	public boolean visibleTo(long viewerId, long userId) {
		return exists(userId) && this.jdbc
			.sql("""
					SELECT COUNT(*) FROM user_blocks
					WHERE (user_id = :viewerId AND blocked_user_id = :userId) OR (user_id = :userId AND blocked_user_id = :viewerId)
					""")
			.param("viewerId", viewerId)
			.param("userId", userId)
			.query(Long.class)
			.single() == 0;
	}

	static Profile profile(ResultSet rs, int row) throws SQLException {
		return new Profile(rs.getLong("user_id"), rs.getString("display_name"), Gender.valueOf(rs.getString("gender")),
				genders(rs.getString("interested_in")), rs.getDate("birth_date").toLocalDate(), rs.getDouble("lat"),
				rs.getDouble("lon"), rs.getString("geohash"), rs.getInt("age_min"), rs.getInt("age_max"),
				rs.getInt("max_distance_km"), rs.getBoolean("expand_when_out"), rs.getDouble("desirability"),
				rs.getTimestamp("created_at").toInstant(), rs.getTimestamp("updated_at").toInstant(),
				rs.getTimestamp("last_active_at").toInstant());
	}

	/** MySQL returns a SET column as comma-separated members. */
	static Set<Gender> genders(String set) {
		EnumSet<Gender> genders = EnumSet.noneOf(Gender.class);
		if (!set.isEmpty()) {
			Arrays.stream(set.split(",")).map(Gender::valueOf).forEach(genders::add);
		}
		return genders;
	}

}
