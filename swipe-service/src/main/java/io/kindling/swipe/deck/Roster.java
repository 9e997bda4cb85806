package io.kindling.swipe.deck;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Set;

import io.kindling.swipe.geo.LocationGrid;
import io.kindling.swipe.profile.Gender;

/**
 * Everyone of one gender in one geohash cell, column by column (about 50 bytes a person):
 * what {@link AreaRosters} filters and ranks them by, with the centre of each one's grid
 * cell in place of their position.
 */
final class Roster {

	final long[] userIds;

	final int[] birthDays;

	final short[] ageMins;

	final short[] ageMaxs;

	/** The genders each one is interested in, one bit per {@link Gender}. */
	final byte[] interestedIn;

	final int[] maxDistanceKms;

	final double[] centreLats;

	final double[] centreLons;

	final double[] desirability;

	final long[] lastActiveMicros;

	private final int size;

	private Roster(Builder builder) {
		this.size = builder.size;
		this.userIds = Arrays.copyOf(builder.userIds, this.size);
		this.birthDays = Arrays.copyOf(builder.birthDays, this.size);
		this.ageMins = Arrays.copyOf(builder.ageMins, this.size);
		this.ageMaxs = Arrays.copyOf(builder.ageMaxs, this.size);
		this.interestedIn = Arrays.copyOf(builder.interestedIn, this.size);
		this.maxDistanceKms = Arrays.copyOf(builder.maxDistanceKms, this.size);
		this.centreLats = Arrays.copyOf(builder.centreLats, this.size);
		this.centreLons = Arrays.copyOf(builder.centreLons, this.size);
		this.desirability = Arrays.copyOf(builder.desirability, this.size);
		this.lastActiveMicros = Arrays.copyOf(builder.lastActiveMicros, this.size);
	}

	int size() {
		return this.size;
	}

	static long micros(Instant instant) {
		return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
	}

	static int bit(Gender gender) {
		return 1 << gender.ordinal();
	}

	static byte bits(Set<Gender> genders) {
		int bits = 0;
		for (Gender gender : genders) {
			bits |= bit(gender);
		}
		return (byte) bits;
	}

	/**
	 * One person as read for a roster.
	 *
	 * @param geohash where they are, to tell which cell of a read they belong to
	 */
	record Person(String geohash, long userId, LocalDate birthDate, int ageMin, int ageMax, Set<Gender> interestedIn,
			int maxDistanceKm, double lat, double lon, double desirability, Instant lastActiveAt) {

	}

	static final class Builder {

		private int size;

		private long[] userIds = new long[16];

		private int[] birthDays = new int[16];

		private short[] ageMins = new short[16];

		private short[] ageMaxs = new short[16];

		private byte[] interestedIn = new byte[16];

		private int[] maxDistanceKms = new int[16];

		private double[] centreLats = new double[16];

		private double[] centreLons = new double[16];

		private double[] desirability = new double[16];

		private long[] lastActiveMicros = new long[16];

		void add(Person person, LocationGrid.Cell cell) {
			if (this.size == this.userIds.length) {
				grow(this.size * 2);
			}
			int i = this.size++;
			this.userIds[i] = person.userId();
			this.birthDays[i] = (int) person.birthDate().toEpochDay();
			this.ageMins[i] = (short) person.ageMin();
			this.ageMaxs[i] = (short) person.ageMax();
			this.interestedIn[i] = bits(person.interestedIn());
			this.maxDistanceKms[i] = person.maxDistanceKm();
			this.centreLats[i] = cell.lat();
			this.centreLons[i] = cell.lon();
			this.desirability[i] = person.desirability();
			this.lastActiveMicros[i] = micros(person.lastActiveAt());
		}

		Roster build() {
			return new Roster(this);
		}

		private void grow(int capacity) {
			this.userIds = Arrays.copyOf(this.userIds, capacity);
			this.birthDays = Arrays.copyOf(this.birthDays, capacity);
			this.ageMins = Arrays.copyOf(this.ageMins, capacity);
			this.ageMaxs = Arrays.copyOf(this.ageMaxs, capacity);
			this.interestedIn = Arrays.copyOf(this.interestedIn, capacity);
			this.maxDistanceKms = Arrays.copyOf(this.maxDistanceKms, capacity);
			this.centreLats = Arrays.copyOf(this.centreLats, capacity);
			this.centreLons = Arrays.copyOf(this.centreLons, capacity);
			this.desirability = Arrays.copyOf(this.desirability, capacity);
			this.lastActiveMicros = Arrays.copyOf(this.lastActiveMicros, capacity);
		}

	}

}
