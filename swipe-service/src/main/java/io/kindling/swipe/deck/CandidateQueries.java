package io.kindling.swipe.deck;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.kindling.outbox.SqlTime;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.profile.Gender;
import io.kindling.swipe.profile.Profile;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The deck's reads from MySQL. */
@Repository
class CandidateQueries {

	/**
	 * Desirability (Elo, 1000 to start) minus 10 points per day since last active, at
	 * most 300: a good profile that went quiet sinks below active ones of similar appeal.
	 */
	private static final String SCORE = "desirability - LEAST(TIMESTAMPDIFF(HOUR, last_active_at, FROM_UNIXTIME(:now)), 720) * 10 / 24";

	/** The radius Geohash.distanceKm uses, so SQL and Java agree on who is in range. */
	private static final double EARTH_RADIUS_M = 6_371_008.8;

	private static final String COLUMNS = "user_id, display_name, gender, interested_in, birth_date, lat, lon, age_min, age_max, "
			+ "max_distance_km, " + SCORE + " AS score";

	/**
	 * The viewer's gender preference and the other person's gender and age preferences:
	 * they hold for every card, an expanding deck's too.
	 */
	private static final String EITHER_WOULD_PICK = """
			gender IN (:genders) AND FIND_IN_SET(:viewerGender, interested_in) > 0
			  AND age_min <= :viewerAge AND age_max >= :viewerAge AND user_id <> :viewerId""";

	private final JdbcClient jdbc;

	CandidateQueries(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * The best-ranked people in the given geohash cells who suit the viewer and whom the
	 * viewer suits (gender, age and distance both ways), best first: ids only, the few
	 * chosen are read by {@link #byIds}. The covering index idx_profiles_deck serves the
	 * scan.
	 */
	List<Long> near(Profile viewer, List<String> cells, LocalDate today, Instant now, int limit) {
		Map<String, Object> params = new HashMap<>();
		String area = area(cells, params);
		return this.jdbc.sql("SELECT user_id, " + SCORE + """
				 AS score
				FROM profiles
				WHERE %s
				  AND (%s)
				  AND birth_date <= :youngestBirthDate AND birth_date > :oldestBirthDate
				  AND ST_Distance_Sphere(POINT(lon, lat), POINT(:viewerLon, :viewerLat), :earthRadius)
				      <= LEAST(max_distance_km, :viewerMaxDistanceKm) * 1000
				ORDER BY score DESC, user_id
				LIMIT :limit
				""".formatted(EITHER_WOULD_PICK, area))
			.params(params)
			.params(viewerParams(viewer, today))
			.param("youngestBirthDate", today.minusYears(viewer.ageMin()))
			.param("oldestBirthDate", today.minusYears(viewer.ageMax() + 1L))
			.param("viewerMaxDistanceKm", viewer.maxDistanceKm())
			.param("now", SqlTime.epochSeconds(now))
			.param("limit", limit)
			.query((rs, row) -> rs.getLong("user_id"))
			.list();
	}

	/**
	 * People outside the viewer's own distance or age preference, for a deck that ran
	 * out: within {@code maxExpandKm} and {@code ageSlackYears} of the viewer's age
	 * range, and within their own preferences in full (gender, the viewer's age, their
	 * radius). Those within the viewer's age range come first, then the rest, each
	 * nearest first.
	 */
	List<Long> beyond(Profile viewer, int maxExpandKm, int ageSlackYears, LocalDate today, Instant now, int limit) {
		Map<String, Object> params = new HashMap<>();
		String area = area(Geohash.cellAndNeighbours(
				viewer.geohash().substring(0, Math.min(viewer.geohash().length(), Geohash.precisionFor(maxExpandKm)))),
				params);
		String distance = "ST_Distance_Sphere(POINT(lon, lat), POINT(:viewerLon, :viewerLat), :earthRadius)";
		String ageOutside = "(birth_date > :youngestBirthDate OR birth_date <= :oldestBirthDate)";
		return this.jdbc.sql("""
				SELECT user_id FROM profiles
				WHERE %s
				  AND (%s)
				  AND birth_date <= :youngestSlackBirthDate AND birth_date > :oldestSlackBirthDate
				  AND %s <= LEAST(max_distance_km, :maxExpandKm) * 1000
				  AND (%s > :viewerMaxDistanceKm * 1000 OR %s)
				ORDER BY %s, %s, user_id
				LIMIT :limit
				""".formatted(EITHER_WOULD_PICK, area, distance, distance, ageOutside, ageOutside, distance))
			.params(params)
			.params(viewerParams(viewer, today))
			.param("youngestBirthDate", today.minusYears(viewer.ageMin()))
			.param("oldestBirthDate", today.minusYears(viewer.ageMax() + 1L))
			.param("youngestSlackBirthDate", today.minusYears(Math.max(0, viewer.ageMin() - ageSlackYears)))
			.param("oldestSlackBirthDate", today.minusYears(viewer.ageMax() + ageSlackYears + 1L))
			.param("viewerMaxDistanceKm", viewer.maxDistanceKm())
			.param("maxExpandKm", maxExpandKm)
			.param("limit", limit)
			.query((rs, row) -> rs.getLong("user_id"))
			.list();
	}

	/** "Starts with one of these cells", as ranges the geohash index serves. */
	private static String area(List<String> cells, Map<String, Object> params) {
		StringBuilder area = new StringBuilder();
		for (int i = 0; i < cells.size(); i++) {
			area.append((i == 0) ? "" : " OR ")
				.append("(geohash >= :lo")
				.append(i)
				.append(" AND geohash < :hi")
				.append(i)
				.append(')');
			params.put("lo" + i, cells.get(i));
			// '~' sorts after every base-32 digit: the range is "starts with the cell"
			params.put("hi" + i, cells.get(i) + "~");
		}
		return area.toString();
	}

	/**
	 * Who the viewer is, as both queries match it against the other side's preferences.
	 */
	private static Map<String, Object> viewerParams(Profile viewer, LocalDate today) {
		Map<String, Object> params = new HashMap<>();
		params.put("genders", viewer.interestedIn().stream().map(Gender::name).toList());
		params.put("viewerGender", viewer.gender().name());
		params.put("viewerAge", viewer.ageOn(today));
		params.put("viewerId", viewer.userId());
		params.put("viewerLat", viewer.lat());
		params.put("viewerLon", viewer.lon());
		params.put("earthRadius", EARTH_RADIUS_M);
		return params;
	}

	List<Candidate> byIds(Collection<Long> userIds, Instant now) {
		if (userIds.isEmpty()) {
			return List.of();
		}
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM profiles WHERE user_id IN (:userIds)")
			.param("userIds", userIds)
			.param("now", SqlTime.epochSeconds(now))
			.query(CandidateQueries::candidate)
			.list();
	}

	/** Everyone the user blocked or was blocked by. */
	Set<Long> blockedEitherWay(long userId) {
		return new HashSet<>(this.jdbc.sql("""
				SELECT blocked_user_id FROM user_blocks WHERE user_id = :userId
				UNION
				SELECT user_id FROM user_blocks WHERE blocked_user_id = :userId
				""").param("userId", userId).query(Long.class).list());
	}

	/**
	 * The truth for the few cards about to be shown: which of them the user swiped (and
	 * did not rewind) or is blocked with, whatever the filter or the stored deck say.
	 */
	Set<Long> notShowable(long userId, Collection<Long> targets) {
		if (targets.isEmpty()) {
			return Set.of();
		}
		return new HashSet<>(this.jdbc.sql("""
				SELECT active_target FROM swipe_history
				WHERE user_id = :userId AND active_target IN (:targets)
				UNION
				SELECT blocked_user_id FROM user_blocks WHERE user_id = :userId AND blocked_user_id IN (:targets)
				UNION
				SELECT user_id FROM user_blocks WHERE blocked_user_id = :userId AND user_id IN (:targets)
				""").param("userId", userId).param("targets", targets).query(Long.class).list());
	}

	private static Candidate candidate(ResultSet rs, int row) throws SQLException {
		return new Candidate(rs.getLong("user_id"), rs.getString("display_name"),
				Gender.valueOf(rs.getString("gender")), genders(rs.getString("interested_in")),
				rs.getDate("birth_date").toLocalDate(), rs.getDouble("lat"), rs.getDouble("lon"), rs.getInt("age_min"),
				rs.getInt("age_max"), rs.getInt("max_distance_km"), rs.getDouble("score"));
	}

	/** MySQL returns a SET column as comma-separated members. */
	private static Set<Gender> genders(String set) {
		EnumSet<Gender> genders = EnumSet.noneOf(Gender.class);
		if (!set.isEmpty()) {
			Arrays.stream(set.split(",")).map(Gender::valueOf).forEach(genders::add);
		}
		return genders;
	}

}
