package io.kindling.swipe.deck;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

import io.kindling.infra.test.MutableClock;
import io.kindling.swipe.geo.Geohash;
import io.kindling.swipe.geo.GridProperties;
import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Gender;
import io.kindling.swipe.profile.Profile;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rosters with no servers: the people of an area are filtered by exactly the rules of
 * {@link Candidate#suits} and ranked as the deck ranks, and an area is read once per
 * {@code roster-ttl}.
 */
class AreaRostersTests {

	private static final LocationGrid GRID = new LocationGrid(new GridProperties(1.0));

	private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

	private static final LocalDate TODAY = LocalDate.ofInstant(NOW, ZoneOffset.UTC);

	/** Oslo; one degree of latitude north is about 111 km. */
	private static final double LAT = 59.91;

	private static final double LON = 10.75;

	private static final List<Gender> GENDERS = List.of(Gender.values());

	@Test
	void anAreaIsFilteredByBothSidesPreferencesBetweenCellCentresAndRankedAsTheDeckRanks() {
		Random random = new Random(34);
		List<Person> people = randomPeople(3_000, random);
		Table table = new Table(people);
		AreaRosters rosters = new AreaRosters(table, GRID, new MutableClock(NOW), settings(Duration.ZERO));
		int compared = 0;
		for (int v = 0; v < 30; v++) {
			Profile viewer = randomPerson(v + 1, random).asProfile();
			List<String> cells = Geohash.cellAndNeighbours(viewer.geohash().substring(0, 4));
			List<Person> expected = people.stream()
				.filter((person) -> cells.stream().anyMatch(person.geohash()::startsWith))
				.filter((person) -> person.asCandidate().suits(viewer, TODAY, GRID))
				.sorted(Comparator.comparingDouble(AreaRostersTests::rank).reversed().thenComparingLong(Person::userId))
				.toList();
			assertThat(rosters.ranked(viewer, cells, TODAY, NOW, 10_000)).as("viewer %d", v)
				.containsExactlyElementsOf(expected.stream().map(Person::userId).toList());
			assertThat(rosters.ranked(viewer, cells, TODAY, NOW, 3)).as("viewer %d, the best three", v)
				.containsExactlyElementsOf(expected.stream().limit(3).map(Person::userId).toList());
			compared += expected.size();
		}
		// the comparison covers many people, in and out of each other's range
		assertThat(compared).isGreaterThan(300);
	}

	@Test
	void anAreaIsReadOncePerTtlAndAfreshAfterIt() {
		Table table = new Table(randomPeople(500, new Random(35)));
		MutableClock clock = new MutableClock(NOW);
		AreaRosters rosters = new AreaRosters(table, GRID, clock, settings(Duration.ofSeconds(30)));
		Profile viewer = new Person(1, Gender.WOMAN, Set.of(Gender.MAN), 30, 18, 99, 100, LAT, LON, 1000, NOW)
			.asProfile();
		List<String> cells = Geohash.cellAndNeighbours(viewer.geohash().substring(0, 4));

		List<Long> first = rosters.ranked(viewer, cells, TODAY, NOW, 10_000);
		assertThat(first).isNotEmpty();
		assertThat(table.reads).as("one read for the nine cells").isEqualTo(1);
		Person newcomer = new Person(9_999, Gender.MAN, Set.of(Gender.WOMAN), 30, 18, 99, 100, LAT, LON, 2000, NOW);
		table.people.add(newcomer);
		clock.advance(Duration.ofSeconds(29));
		assertThat(rosters.ranked(viewer, cells, TODAY, NOW, 10_000)).as("within the ttl: the same roster")
			.isEqualTo(first);
		assertThat(table.reads).isEqualTo(1);

		clock.advance(Duration.ofSeconds(1));
		assertThat(rosters.ranked(viewer, cells, TODAY, NOW, 10_000)).as("after it: read afresh, newcomer first")
			.startsWith(newcomer.userId())
			.hasSize(first.size() + 1);
		assertThat(table.reads).isEqualTo(2);
	}

	@Test
	void aTtlOfZeroReadsTheAreaForEveryDeck() {
		Table table = new Table(new ArrayList<>(
				List.of(new Person(2, Gender.MAN, Set.of(Gender.WOMAN), 30, 18, 99, 100, LAT, LON, 1000, NOW))));
		AreaRosters rosters = new AreaRosters(table, GRID, new MutableClock(NOW), settings(Duration.ZERO));
		Profile viewer = new Person(1, Gender.WOMAN, Set.of(Gender.MAN), 30, 18, 99, 100, LAT, LON, 1000, NOW)
			.asProfile();
		List<String> cells = Geohash.cellAndNeighbours(viewer.geohash().substring(0, 5));
		for (int i = 1; i <= 3; i++) {
			assertThat(rosters.ranked(viewer, cells, TODAY, NOW, 10)).containsExactly(2L);
			assertThat(table.reads).isEqualTo(i);
		}
	}

	/** The deck's rank, written out independently of the rosters. */
	private static double rank(Person person) {
		long idleHours = Duration.between(person.lastActiveAt(), NOW).toHours();
		return person.desirability() - Math.min(idleHours, 720) * 10.0 / 24;
	}

	private static DeckProperties settings(Duration rosterTtl) {
		return new DeckProperties(200, Duration.ofHours(1), 5, 2, 50_000, Duration.ofMillis(200), 100, 500, rosterTtl,
				1_000_000);
	}

	private static List<Person> randomPeople(int count, Random random) {
		List<Person> people = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			people.add(randomPerson(100 + i, random));
		}
		return people;
	}

	/** Someone within about 40 km of Oslo, of any gender, age, taste and radius. */
	private static Person randomPerson(long id, Random random) {
		Set<Gender> interestedIn = EnumSet.noneOf(Gender.class);
		GENDERS.stream().filter((gender) -> random.nextInt(3) > 0).forEach(interestedIn::add);
		if (interestedIn.isEmpty()) {
			interestedIn.add(GENDERS.get(random.nextInt(3)));
		}
		int ageMin = 18 + random.nextInt(20);
		return new Person(id, GENDERS.get(random.nextInt(3)), interestedIn, 18 + random.nextInt(40), ageMin,
				ageMin + random.nextInt(30), 1 + random.nextInt(40), LAT + (random.nextDouble() - 0.5) * 0.7,
				LON + (random.nextDouble() - 0.5) * 1.4, 700 + 600 * random.nextDouble(),
				NOW.minus(Duration.ofMinutes(random.nextInt(60 * 24 * 40))));
	}

	private record Person(long userId, Gender gender, Set<Gender> interestedIn, int age, int ageMin, int ageMax,
			int maxDistanceKm, double lat, double lon, double desirability, Instant lastActiveAt) {

		LocalDate birthDate() {
			// half a year before the birthday, so the age is unambiguous
			return TODAY.minusYears(this.age).minusMonths(6);
		}

		String geohash() {
			return Geohash.encode(this.lat, this.lon, Geohash.STORED_PRECISION);
		}

		Candidate asCandidate() {
			return new Candidate(this.userId, "Person " + this.userId, this.gender, this.interestedIn, birthDate(),
					this.lat, this.lon, this.ageMin, this.ageMax, this.maxDistanceKm);
		}

		Profile asProfile() {
			return new Profile(this.userId, "Person " + this.userId, this.gender, this.interestedIn, birthDate(),
					this.lat, this.lon, geohash(), this.ageMin, this.ageMax, this.maxDistanceKm, false,
					this.desirability, NOW, NOW, this.lastActiveAt);
		}

	}

	/** The profiles table as the rosters read it, counting the reads. */
	private static final class Table extends CandidateQueries {

		final List<Person> people;

		int reads;

		Table(List<Person> people) {
			super(null, GRID);
			this.people = people;
		}

		@Override
		void roster(Gender gender, List<String> cells, Consumer<Roster.Person> each) {
			this.reads++;
			for (Person person : this.people) {
				if (person.gender() == gender && cells.stream().anyMatch(person.geohash()::startsWith)) {
					each.accept(new Roster.Person(person.geohash(), person.userId(), person.birthDate(),
							person.ageMin(), person.ageMax(), person.interestedIn(), person.maxDistanceKm(),
							person.lat(), person.lon(), person.desirability(), person.lastActiveAt()));
				}
			}
		}

	}

}
