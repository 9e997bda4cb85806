package io.kindling.infra.demo;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.kindling.infra.CommandLine;
import io.kindling.infra.http.Hs256;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;

/**
 * A small town for the web client: four demo users (ids {@code base+1} to {@code base+4})
 * and twenty people around them ({@code base+101} to {@code base+120}), everyone within a
 * few kilometres and open to everyone else, so each demo user's deck holds the whole town
 * and the other demo users. Some of the town have super liked a demo user (the card is
 * marked), some have liked one (liking them back is a match at once), two are boosted.
 * Made through swipe-service's API with tokens signed by the stack's secret, so Redis and
 * MariaDB agree as after real use; running it again changes nothing (the swipes'
 * idempotency keys are fixed, a second boost is refused and ignored).
 *
 * <pre>
 * ./kindling seed-data --demo      (then: ./kindling web 1)
 * </pre>
 */
public final class DemoTown {

	static final String[] DEMO_NAMES = { "Ada", "Ben", "Cleo", "Dev" };

	static final String[] TOWN_NAMES = { "Maya", "Noah", "Iris", "Leo", "Zoe", "Omar", "Lena", "Theo", "Nora", "Elias",
			"Ines", "Jonas", "Sara", "Felix", "Alba", "Kai", "Mila", "Hugo", "Ruth", "Sami" };

	static final String[] GENDERS = { "WOMAN", "MAN", "NONBINARY", "MAN", "WOMAN" };

	/** The town's centre (Lugano): away from the cities the bench's profiles crowd. */
	static final double LAT = 46.0037;

	static final double LON = 8.9511;

	private DemoTown() {
	}

	public static void main(String[] args) {
		CommandLine options = CommandLine.of(args);
		int port = (int) options.number("--swipe-port", 8082);
		String secret = System.getenv("KINDLING_JWT_SECRET");
		if (secret == null || secret.isBlank()) {
			throw new IllegalStateException("KINDLING_JWT_SECRET must be the swipe service's secret");
		}
		ServiceClient swipes = new ServiceClient(port);
		if (swipes.get("/actuator/health", null).status() != 200) {
			throw new IllegalStateException("swipe-service does not answer on port " + port + ": ./kindling up first");
		}
		seed(swipes, secret, options.number("--base", 0));
		System.out.printf("demo town ready: demo users %s are ids 1 to 4; open one with ./kindling web 1%n",
				String.join(", ", DEMO_NAMES));
	}

	/** The demo users' ids for a given base: {@code base+1} to {@code base+4}. */
	public static List<Long> demoUsers(long base) {
		List<Long> ids = new ArrayList<>();
		for (int i = 0; i < DEMO_NAMES.length; i++) {
			ids.add(base + 1 + i);
		}
		return ids;
	}

	/** Makes (or makes again) the town with ids offset by {@code base}. */
	public static void seed(ServiceClient swipes, String secret, long base) {
		List<Long> demo = demoUsers(base);
		for (int i = 0; i < demo.size(); i++) {
			profile(swipes, secret, demo.get(i), DEMO_NAMES[i], GENDERS[i], 27 + i * 2, i);
		}
		List<Long> town = new ArrayList<>();
		for (int i = 0; i < TOWN_NAMES.length; i++) {
			long id = base + 101 + i;
			town.add(id);
			profile(swipes, secret, id, TOWN_NAMES[i], GENDERS[(i + 1) % GENDERS.length], 22 + (i * 7) % 20, i + 4);
		}
		for (int d = 0; d < demo.size(); d++) {
			// two super likers and two likers for each demo user
			swipe(swipes, secret, town.get(2 * d), demo.get(d), "SUPER_LIKE");
			swipe(swipes, secret, town.get(2 * d + 1), demo.get(d), "SUPER_LIKE");
			swipe(swipes, secret, town.get(8 + d), demo.get(d), "LIKE");
			swipe(swipes, secret, town.get(12 + d), demo.get(d), "LIKE");
		}
		for (long boosted : List.of(town.get(16), town.get(17))) {
			Response answer = swipes.send("POST", "/api/boosts", Hs256.token(secret, boosted), null);
			// 409 or 429: boosted already, from an earlier run
			expect(answer, "boost of " + boosted, 201, 409, 429);
		}
	}

	private static void profile(ServiceClient swipes, String secret, long id, String name, String gender, int age,
			int place) {
		// a spiral around the centre, a few hundred metres apart
		double angle = place * 2.4;
		double km = 0.4 + place * 0.25;
		double lat = LAT + Math.sin(angle) * km / 111.0;
		double lon = LON + Math.cos(angle) * km / (111.0 * Math.cos(Math.toRadians(LAT)));
		LocalDate birth = LocalDate.now(ZoneOffset.UTC).minusYears(age).minusDays(40 + place);
		String body = String.format(Locale.ROOT, """
				{"display_name":"%s","gender":"%s","interested_in":["WOMAN","MAN","NONBINARY"],"birth_date":"%s",\
				"location":{"lat":%.6f,"lon":%.6f},"age_min":18,"age_max":99,"max_distance_km":50}""", name, gender,
				birth, lat, lon);
		expect(swipes.send("PUT", "/api/profile", Hs256.token(secret, id), body), "profile of " + id, 200);
	}

	private static void swipe(ServiceClient swipes, String secret, long from, long to, String action) {
		String body = "{\"target_user_id\":" + to + ",\"action\":\"" + action + "\"}";
		Response answer = swipes.send("POST", "/api/swipes", Hs256.token(secret, from), body, "Idempotency-Key",
				"demo-" + from + "-" + to);
		// 409: a swipe on that person stands already (made by hand since); 429: today's
		// super likes are spent
		expect(answer, action + " " + from + " -> " + to, 200, 409, 429);
	}

	private static void expect(Response answer, String what, int... statuses) {
		for (int status : statuses) {
			if (answer.status() == status) {
				return;
			}
		}
		throw new IllegalStateException(what + " failed: " + answer.status() + " " + answer.body());
	}

}
