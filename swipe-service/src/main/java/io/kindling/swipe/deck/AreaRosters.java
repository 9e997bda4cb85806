package io.kindling.swipe.deck;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Gender;
import io.kindling.swipe.profile.Profile;

import org.springframework.stereotype.Component;

/**
 * Who lives in a geohash cell, per gender, as the deck filters and ranks them: read from
 * MySQL once per {@code deck.roster-ttl} and shared by every deck of the area on this
 * instance, so that assembling a deck, however many people the viewer has swiped, costs
 * no scan of the area. A scan is the bulk of the plain SQL query; here the viewer's
 * preferences, the other side's, the ranking and the swipe filter are applied in memory
 * to the few thousand people of the area.
 * <p>
 * A roster holds no exact position: each person's place is the centre of their grid cell
 * ({@link LocationGrid}), the only place the deck decides anything on.
 * <p>
 * A roster may be up to {@code roster-ttl} old: someone who signed up or moved since is
 * missing from it that long, and the ranking is that old. Nothing it says is shown as it
 * is: the people chosen are read again from {@code profiles} and checked again against
 * both sides' preferences ({@link DeckPlan}), and every page against the swipes and
 * blocks of the moment.
 */
@Component
class AreaRosters {

	/**
	 * Desirability points lost per hour since last active, up to {@link #MAX_IDLE_HOURS}.
	 */
	private static final double POINTS_PER_IDLE_HOUR = 10.0 / 24;

	private static final long MAX_IDLE_HOURS = 720;

	private final CandidateQueries queries;

	private final LocationGrid grid;

	/** Weighed by people, expiring on the service's clock. */
	private final Cache<Key, Roster> rosters;

	AreaRosters(CandidateQueries queries, LocationGrid grid, Clock clock, DeckProperties settings) {
		this.queries = queries;
		this.grid = grid;
		this.rosters = Caffeine.newBuilder()
			.ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
			.expireAfterWrite(settings.rosterTtl())
			.maximumWeight(settings.rosterMaxPeople())
			.weigher((Key key, Roster roster) -> roster.size())
			.build();
	}

	/**
	 * The people of these cells who suit the viewer and whom the viewer suits (gender,
	 * age and both radiuses, each between cell centres), best ranked first: desirability
	 * less 10 points per day since last active (at most 300), then the lower id. At most
	 * {@code limit}.
	 */
	List<Long> ranked(Profile viewer, List<String> cells, LocalDate today, Instant now, int limit) {
		Wanted wanted = new Wanted(viewer, today, this.grid);
		long nowMicros = Roster.micros(now);
		List<Ranked> found = new ArrayList<>();
		for (Gender gender : viewer.interestedIn()) {
			for (Roster roster : rosters(gender, cells)) {
				for (int i = 0; i < roster.size(); i++) {
					if (wanted.suits(roster, i)) {
						found.add(new Ranked(roster.userIds[i], score(roster, i, nowMicros)));
					}
				}
			}
		}
		found.sort(Comparator.comparingDouble(Ranked::score).reversed().thenComparingLong(Ranked::userId));
		List<Long> ids = new ArrayList<>(Math.min(limit, found.size()));
		for (int i = 0; i < found.size() && i < limit; i++) {
			ids.add(found.get(i).userId());
		}
		return ids;
	}

	private Collection<Roster> rosters(Gender gender, List<String> cells) {
		List<Key> keys = cells.stream().map((cell) -> new Key(cell, gender)).toList();
		return this.rosters.getAll(keys, this::load).values();
	}

	/** Every missing cell of the area in one range read. */
	private Map<Key, Roster> load(Set<? extends Key> missing) {
		Map<String, Roster.Builder> loading = new HashMap<>();
		missing.forEach((key) -> loading.put(key.cell(), new Roster.Builder()));
		Key any = missing.iterator().next();
		int precision = any.cell().length();
		this.queries.roster(any.gender(), List.copyOf(loading.keySet()), (person) -> {
			Roster.Builder builder = loading.get(person.geohash().substring(0, precision));
			if (builder != null) {
				builder.add(person, this.grid.cellOf(person.lat(), person.lon()));
			}
		});
		Map<Key, Roster> loaded = new HashMap<>();
		missing.forEach((key) -> loaded.put(key, loading.get(key.cell()).build()));
		return loaded;
	}

	/**
	 * The rank: desirability (Elo, 1000 to start) less 10 points per day since last
	 * active, counted in whole hours, at most 300, so a good profile that went quiet
	 * sinks below active ones of similar appeal. In SQL: {@code desirability -
	 * LEAST(TIMESTAMPDIFF(HOUR, last_active_at, now), 720) * 10 / 24}.
	 */
	private static double score(Roster roster, int i, long nowMicros) {
		long idleHours = Math.min(MAX_IDLE_HOURS, (nowMicros - roster.lastActiveMicros[i]) / 3_600_000_000L);
		return roster.desirability[i] - idleHours * POINTS_PER_IDLE_HOUR;
	}

	private record Key(String cell, Gender gender) {

	}

	private record Ranked(long userId, double score) {

	}

	/**
	 * The viewer's side of {@link Candidate#suits}, prepared once per deck: the same
	 * rules (both sides' gender, age and radius; the radius between cell centres) on a
	 * roster's columns.
	 */
	private static final class Wanted {

		private final long viewerId;

		private final int viewerGender;

		private final int viewerAge;

		private final long youngestBirthDay;

		private final long oldestBirthDay;

		private final int maxDistanceKm;

		private final double centreLat;

		private final double centreLon;

		Wanted(Profile viewer, LocalDate today, LocationGrid grid) {
			this.viewerId = viewer.userId();
			this.viewerGender = Roster.bit(viewer.gender());
			this.viewerAge = viewer.ageOn(today);
			// aged ageMin..ageMax today: born on or before the first, after the second
			this.youngestBirthDay = today.minusYears(viewer.ageMin()).toEpochDay();
			this.oldestBirthDay = today.minusYears(viewer.ageMax() + 1L).toEpochDay();
			this.maxDistanceKm = viewer.maxDistanceKm();
			LocationGrid.Cell cell = grid.cellOf(viewer.lat(), viewer.lon());
			this.centreLat = cell.lat();
			this.centreLon = cell.lon();
		}

		boolean suits(Roster roster, int i) {
			if (roster.userIds[i] == this.viewerId || (roster.interestedIn[i] & this.viewerGender) == 0
					|| roster.ageMins[i] > this.viewerAge || roster.ageMaxs[i] < this.viewerAge
					|| roster.birthDays[i] > this.youngestBirthDay || roster.birthDays[i] <= this.oldestBirthDay) {
				return false;
			}
			double km = Geohash.distanceKm(this.centreLat, this.centreLon, roster.centreLats[i], roster.centreLons[i]);
			return km <= Math.min(this.maxDistanceKm, roster.maxDistanceKms[i]);
		}

	}

}
