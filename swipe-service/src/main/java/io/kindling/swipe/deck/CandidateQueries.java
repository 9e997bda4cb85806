package io.kindling.swipe.deck;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Gender;
import io.kindling.swipe.profile.Profile;

import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The deck's reads from MySQL. */
@Repository
class CandidateQueries {

	/** The radius the grid's distances use, so SQL and Java agree on who is in range. */
	private static final double EARTH_RADIUS_M = LocationGrid.EARTH_RADIUS_KM * 1000;

	private static final String COLUMNS = "user_id, display_name, gender, interested_in, birth_date, lat, lon, age_min, age_max, "
			+ "max_distance_km";

	/**
	 * The viewer's gender preference and the other person's gender and age preferences:
	 * they hold for every card, an expanding deck's too.
	 */
	private static final String EITHER_WOULD_PICK = """
			gender IN (:genders) AND FIND_IN_SET(:viewerGender, interested_in) > 0
			  AND age_min <= :viewerAge AND age_max >= :viewerAge AND user_id <> :viewerId""";

	/**
	 * Each person's distance {@code km} from the viewer between the centres of their grid
	 * cells, with the columns asked for: {@code LocationGrid.cellOf} step by step (the
	 * row, its centre's latitude, the row's number of columns, the column's centre), so
	 * that MySQL places everyone in the same cell as the service does. Formatted with the
	 * columns and the {@code WHERE} clause of the people to place.
	 */
	private static final String CELL_CENTRES = """
			SELECT %1$s,
			       ST_Distance_Sphere(POINT(-180 + (MOD(FLOOR((lon + 180) / (360 / cols)), cols) + 0.5) * (360 / cols),
			                                centre_lat),
			                          POINT(:viewerCentreLon, :viewerCentreLat), :earthRadius) / 1000 AS km
			FROM (SELECT %1$s, lon, centre_lat,
			             GREATEST(1, FLOOR(2 * PI() * :earthKm * COS(RADIANS(centre_lat)) / :cellKm + 0.5)) AS cols
			      FROM (SELECT %1$s, lon,
			                   -90 + (LEAST(:gridRows - 1, FLOOR((lat + 90) / :rowHeight)) + 0.5) * :rowHeight AS centre_lat
			            FROM profiles
			            %2$s) rowed) columned""";

	private final JdbcClient jdbc;

	private final LocationGrid grid;

	CandidateQueries(JdbcClient jdbc, LocationGrid grid) {
		this.jdbc = jdbc;
		this.grid = grid;
	}

	/**
	 * Everyone of this gender in the given geohash cells (all of one precision), with
	 * what the deck filters and ranks them by, for {@link AreaRosters}: one read of the
	 * cells' ranges of the covering index idx_profiles_deck, with no preference and no
	 * order in it.
	 */
	void roster(Gender gender, List<String> cells, Consumer<Roster.Person> each) {
		Map<String, Object> params = new HashMap<>();
		String area = area(cells, params);
		this.jdbc.sql("""
				SELECT geohash, user_id, birth_date, age_min, age_max, interested_in, max_distance_km, lat, lon,
				       desirability, last_active_at
				FROM profiles
				WHERE gender = :gender AND (%s)
				""".formatted(area))
			.params(params)
			.param("gender", gender.name())
			.query((RowCallbackHandler) (rs) -> each.accept(new Roster.Person(rs.getString("geohash"),
					rs.getLong("user_id"), rs.getDate("birth_date").toLocalDate(), rs.getInt("age_min"),
					rs.getInt("age_max"), genders(rs.getString("interested_in")), rs.getInt("max_distance_km"),
					rs.getDouble("lat"), rs.getDouble("lon"), rs.getDouble("desirability"),
					rs.getTimestamp("last_active_at").toInstant())));
	}

	/**
	 * People outside the viewer's own distance or age preference, for a deck that ran
	 * out: within {@code maxExpandKm} and {@code ageSlackYears} of the viewer's age
	 * range, and within their own preferences in full (gender, the viewer's age, their
	 * radius). Those within the viewer's age range come first, then the rest, each
	 * nearest first. Every distance here, for the radiuses as for the order, is between
	 * the centres of the two people's grid cells ({@link #CELL_CENTRES}), as everywhere
	 * in the deck: the nearest {@code limit} chosen by exact distance would tell a victim
	 * from the throwaway accounts an attacker placed around them.
	 */
	List<Long> beyond(Profile viewer, int maxExpandKm, int ageSlackYears, LocalDate today, int limit) {
		Map<String, Object> params = new HashMap<>();
		// wide enough for everyone whose cell's centre is within maxExpandKm
		int precision = Geohash.precisionFor(maxExpandKm + this.grid.diagonalKm());
		String area = area(Geohash
			.cellAndNeighbours(viewer.geohash().substring(0, Math.min(viewer.geohash().length(), precision))), params);
		String ageOutside = "(birth_date > :youngestBirthDate OR birth_date <= :oldestBirthDate)";
		LocationGrid.Cell centre = this.grid.cellOf(viewer.lat(), viewer.lon());
		return this.jdbc.sql("""
				SELECT user_id FROM (%s) placed
				WHERE km <= LEAST(max_distance_km, :maxExpandKm)
				  AND (km > :viewerMaxDistanceKm OR %s)
				ORDER BY %s, km, user_id
				LIMIT :limit
				""".formatted(CELL_CENTRES.formatted("""
				user_id, birth_date, max_distance_km""", """
				WHERE %s
				  AND (%s)
				  AND birth_date <= :youngestSlackBirthDate AND birth_date > :oldestSlackBirthDate
				""".formatted(EITHER_WOULD_PICK, area)), ageOutside, ageOutside))
			.params(params)
			.params(viewerParams(viewer, today))
			.params(gridParams(centre))
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

	/**
	 * The grid parameters of {@link #CELL_CENTRES}, and the centre of the viewer's cell.
	 */
	private Map<String, Object> gridParams(LocationGrid.Cell viewerCentre) {
		return Map.of("gridRows", this.grid.rows(), "rowHeight", 180.0 / this.grid.rows(), "cellKm", this.grid.cellKm(),
				"earthKm", LocationGrid.EARTH_RADIUS_KM, "viewerCentreLat", viewerCentre.lat(), "viewerCentreLon",
				viewerCentre.lon());
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
	 * Who the viewer is, as the expansion matches it against the other side's
	 * preferences.
	 */
	private static Map<String, Object> viewerParams(Profile viewer, LocalDate today) {
		Map<String, Object> params = new HashMap<>();
		params.put("genders", viewer.interestedIn().stream().map(Gender::name).toList());
		params.put("viewerGender", viewer.gender().name());
		params.put("viewerAge", viewer.ageOn(today));
		params.put("viewerId", viewer.userId());
		params.put("earthRadius", EARTH_RADIUS_M);
		return params;
	}

	List<Candidate> byIds(Collection<Long> userIds) {
		if (userIds.isEmpty()) {
			return List.of();
		}
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM profiles WHERE user_id IN (:userIds)")
			.param("userIds", userIds)
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
				rs.getInt("age_max"), rs.getInt("max_distance_km"));
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
