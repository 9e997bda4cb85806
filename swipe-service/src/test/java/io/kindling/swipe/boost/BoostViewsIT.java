package io.kindling.swipe.boost;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.CountDownLatch;
import java.util.stream.LongStream;

import io.kindling.infra.http.Response;
import io.kindling.support.web.WebEdgeProperties;
import io.kindling.swipe.deck.DeckTestSupport;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A boost's views are the viewers who were served a page holding its card, once each; a
 * deck assembled and never served costs nothing. A deck holds boost slots, each filled
 * with the least served boost when its page is served, so many viewers reading many
 * pages, with decks assembled ahead in the background, one after another or at once,
 * leave every boosted person's views within one of the others.
 */
class BoostViewsIT extends DeckTestSupport {

	@Autowired
	WebEdgeProperties edge;

	@Autowired
	BoostViewsAtExpiry expiry;

	@Autowired
	MeterRegistry meters;

	@Test
	void aViewCountsWhenAPageHoldingTheCardIsServedOncePerViewer() {
		double[] at = place(59.91, 10.75);
		long base = 8_300_000;
		long booster = base + 1;
		long viewer = base + 2;
		long other = base + 3;
		save(Person.man(booster, at[0], at[1]).desirability(100));
		LongStream.rangeClosed(base + 10, base + 40).forEach((id) -> save(Person.man(id, at[0], at[1])));
		save(Person.woman(viewer, at[0], at[1]));
		save(Person.woman(other, at[0], at[1]));
		Instant startedAt = this.clock.instant();
		assertThat(post(booster, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value());
		assertThat(current(booster)).isEqualTo(new Current(startedAt.plus(Duration.ofMinutes(30)), 0));

		// the deck holds a boost slot at position 6; the first page stops before it
		List<JsonNode> first = page(viewer, 5);
		assertThat(first).noneMatch((card) -> card.get("boosted").asBoolean());
		assertThat(remainingBoostSlots(viewer)).first().isEqualTo(List.of(booster));
		assertThat(current(booster).views()).isZero();

		List<JsonNode> second = page(viewer, 5);
		assertThat(second.get(0).get("user_id").asLong()).isEqualTo(booster);
		assertThat(second.get(0).get("boosted").asBoolean()).isTrue();
		assertThat(current(booster).views()).isOne();

		// served to her again from a new deck: still one view (the refill the second page
		// began ends first, else it would append its deck, without the page just shown,
		// to the emptied key)
		forgetDeck(viewer);
		assertThat(page(viewer, 100))
			.anyMatch((card) -> card.get("user_id").asLong() == booster && card.get("boosted").asBoolean());
		assertThat(current(booster).views()).isOne();

		page(other, 100);
		assertThat(current(booster).views()).isEqualTo(2);
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM boost_views v JOIN boosts b ON b.boost_id = v.boost_id"
					+ " WHERE b.user_id = :booster")
			.param("booster", booster)
			.query(Long.class)
			.single()).isEqualTo(2);

		Response none = get(viewer, "/api/boosts/current");
		assertThat(none.status()).isEqualTo(HttpStatus.NOT_FOUND.value());
		assertThat(this.json.readTree(none.body()).get("type").asString())
			.isEqualTo("https://kindling.io/problems/no-active-boost");
	}

	@Test
	void aBoostedCardThatIsNeverServedCostsNothing() {
		double[] at = place(60.39, 5.32);
		long base = 8_400_000;
		long booster = base + 1;
		save(Person.man(booster, at[0], at[1]).desirability(100));
		LongStream.rangeClosed(base + 10, base + 40).forEach((id) -> save(Person.man(id, at[0], at[1])));
		List<Long> viewers = LongStream.rangeClosed(base + 100, base + 103).boxed().toList();
		viewers.forEach((id) -> save(Person.woman(id, at[0], at[1])));
		assertThat(post(booster, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value());

		// a deck the viewer discards (a rewind) before she reaches the card
		long rewinder = viewers.get(0);
		assertThat(page(rewinder, 5)).noneMatch((card) -> card.get("boosted").asBoolean());
		assertThat(remainingBoostSlots(rewinder)).first().isEqualTo(List.of(booster));
		swipe(rewinder, base + 10, "PASS");
		rewind(rewinder, base + 10, "PASS");
		assertThat(this.redis.hasKey("deck:{" + rewinder + "}")).isFalse();

		// a viewer who blocks the boosted person before she reaches the card
		long blocker = viewers.get(1);
		assertThat(page(blocker, 5)).noneMatch((card) -> card.get("boosted").asBoolean());
		assertThat(postJson(blocker, "/api/blocks", "{\"user_id\": " + booster + "}").status())
			.isEqualTo(HttpStatus.CREATED.value());
		assertThat(ids(page(blocker, 100))).doesNotContain(booster);

		// decks that reach their boost slot only after the boost has expired: the slot is
		// filled when served, and an ended boost is nobody's pick
		List<Long> late = viewers.subList(2, 4);
		late.forEach((viewer) -> assertThat(page(viewer, 5)).noneMatch((card) -> card.get("boosted").asBoolean()));
		late.forEach((viewer) -> assertThat(remainingBoostSlots(viewer)).first().isEqualTo(List.of(booster)));
		assertThat(current(booster).views()).isZero();
		this.clock.advance(Duration.ofMinutes(30));
		late.forEach((viewer) -> assertThat(page(viewer, 100)).noneMatch((card) -> card.get("boosted").asBoolean()));

		assertThat(get(booster, "/api/boosts/current").status()).isEqualTo(HttpStatus.NOT_FOUND.value());
		assertThat(this.jdbc.sql("SELECT views FROM boosts WHERE user_id = :booster")
			.param("booster", booster)
			.query(Long.class)
			.single()).isZero();
	}

	@Test
	void theViewsOfAnExpiredBoostGoIntoTheHistogramOnce() {
		double[] at = place(63.43, 10.39);
		long base = 8_500_000;
		long booster = base + 1;
		save(Person.man(booster, at[0], at[1]).desirability(100));
		LongStream.rangeClosed(base + 10, base + 20).forEach((id) -> save(Person.man(id, at[0], at[1])));
		List<Long> viewers = LongStream.rangeClosed(base + 100, base + 102).boxed().toList();
		viewers.forEach((id) -> save(Person.woman(id, at[0], at[1])));
		assertThat(post(booster, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value());
		viewers.forEach((viewer) -> page(viewer, 100));
		assertThat(current(booster).views()).isEqualTo(3);
		DistributionSummary histogram = this.meters.find("kindling.swipe.boost.views").summary();
		assertThat(histogram).isNotNull();
		long countBefore = histogram.count();
		double totalBefore = histogram.totalAmount();

		this.clock.advance(Duration.ofMinutes(30));
		// the scheduled round may have taken it already; either way it is taken once
		this.expiry.record();

		assertThat(this.jdbc.sql("SELECT views_recorded_at IS NOT NULL FROM boosts WHERE user_id = :booster")
			.param("booster", booster)
			.query(Boolean.class)
			.single()).isTrue();
		assertThat(this.jdbc
			.sql("SELECT COUNT(*) FROM boost_views v JOIN boosts b ON b.boost_id = v.boost_id"
					+ " WHERE b.user_id = :booster")
			.param("booster", booster)
			.query(Long.class)
			.single()).isZero();
		assertThat(histogram.count()).isGreaterThan(countBefore);
		assertThat(histogram.totalAmount() - totalBefore).isGreaterThanOrEqualTo(3);
		long countAfter = histogram.count();
		assertThat(this.expiry.record()).isZero();
		assertThat(histogram.count()).isEqualTo(countAfter);
		assertThat(client().get("/actuator/prometheus", this.edge.metricsToken()).body())
			.contains("kindling_swipe_boost_views_bucket{le=\"5.0\"}");
	}

	@Test
	void twoBoostsStartedAtOnceMakeOne() throws Exception {
		double[] at = place(58.97, 5.73);
		long booster = 8_600_001;
		save(Person.man(booster, at[0], at[1]));
		CountDownLatch go = new CountDownLatch(1);
		List<Future<HttpStatus>> answers = new ArrayList<>();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			for (int i = 0; i < 8; i++) {
				answers.add(threads.submit(() -> {
					go.await();
					return HttpStatus.valueOf(post(booster, "/api/boosts").status());
				}));
			}
			go.countDown();
			List<HttpStatus> statuses = new ArrayList<>();
			for (Future<HttpStatus> answer : answers) {
				statuses.add(answer.get());
			}
			assertThat(statuses).containsOnlyOnce(HttpStatus.CREATED)
				.filteredOn((status) -> status != HttpStatus.CREATED)
				.containsOnly(HttpStatus.CONFLICT);
		}
		assertThat(this.jdbc.sql("SELECT COUNT(*) FROM boosts WHERE user_id = :booster")
			.param("booster", booster)
			.query(Long.class)
			.single()).isOne();
	}

	@Test
	void sixBoostsAndTwelveViewersOneAfterAnotherReadingTenPagesEachShareTheViewsEvenly() {
		Spread spread = readPages(place(53.35, -6.26), 8_700_000, 12, (viewer) -> 10);

		// each viewer's first page holds two boost slots: 24 views over 6
		assertThat(spread.views()).as(spread.toString()).allMatch((views) -> views == 4);
	}

	@Test
	void viewersReadingDifferentNumbersOfPagesIntoTheirRefillsStillShareTheViewsWithinOne() {
		int[] pages = { 3, 7, 10, 14, 17, 25 };
		Spread spread = readPages(place(51.90, -8.47), 8_800_000, 18, (viewer) -> pages[viewer % pages.length]);

		// 25 pages of 20 read into decks assembled by refills, with slots of their own
		assertThat(spread.views().stream().mapToLong(Long::longValue).sum()).isGreaterThan(18 * 2);
		assertThat(spread.spread()).as(spread.toString()).isLessThanOrEqualTo(1);
	}

	@Test
	void viewersReadingAtTheSameTimeStillShareTheViewsWithinOne() throws Exception {
		double[] at = place(52.66, -8.63);
		long base = 8_750_000;
		List<Long> boosters = setUpCell(at, base);
		List<Long> viewers = LongStream.range(base + 1000, base + 1012).boxed().toList();
		viewers.forEach((id) -> save(Person.woman(id, at[0], at[1])));
		CountDownLatch go = new CountDownLatch(1);
		List<Future<List<List<Long>>>> served = new ArrayList<>();
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			for (long viewer : viewers) {
				served.add(threads.submit(() -> {
					go.await();
					List<List<Long>> boosted = new ArrayList<>();
					for (int p = 0; p < 10; p++) {
						for (JsonNode card : page(viewer, 20)) {
							if (card.get("boosted").asBoolean()) {
								boosted.add(List.of(card.get("user_id").asLong(), viewer));
							}
						}
					}
					return boosted;
				}));
			}
			go.countDown();
			Set<List<Long>> pairs = new HashSet<>();
			for (Future<List<List<Long>>> viewer : served) {
				pairs.addAll(viewer.get());
			}
			viewers.forEach(this::awaitNoRefill);
			Spread spread = spreadOf(boosters, pairs, 0);
			System.out.println("boost views, viewers at once: " + spread);
			assertThat(spread.views()).as(spread.toString()).allMatch((views) -> views == 4);
		}
	}

	/**
	 * The shape of issue 34: six identical boosts among 220 compatible people of one
	 * cell, all eligible to everyone; one viewer after another (never two at once) reads
	 * her pages of 20, decks of 200 assembled ahead in the background as she goes, each
	 * in place before the next viewer starts. Checks what holds for any spread: what the
	 * table counted is what was served (once per viewer and boost).
	 */
	private Spread readPages(double[] at, long base, int viewerCount,
			java.util.function.IntUnaryOperator pagesOfViewer) {
		List<Long> boosters = setUpCell(at, base);
		List<Long> viewers = LongStream.range(base + 1000, base + 1000 + viewerCount).boxed().toList();
		viewers.forEach((id) -> save(Person.woman(id, at[0], at[1])));

		Set<List<Long>> served = new HashSet<>();
		int slotsLeftUnserved = 0;
		for (int v = 0; v < viewers.size(); v++) {
			long viewer = viewers.get(v);
			for (int p = 0; p < pagesOfViewer.applyAsInt(v); p++) {
				for (JsonNode card : page(viewer, 20)) {
					if (card.get("boosted").asBoolean()) {
						served.add(List.of(card.get("user_id").asLong(), viewer));
					}
				}
			}
			// the deck assembled ahead is in place before the next viewer starts
			awaitNoRefill(viewer);
			assertThat(remainingIds(viewer)).as("a refill assembled the next deck of %d", viewer).isNotEmpty();
			slotsLeftUnserved += remainingBoostSlots(viewer).size();
		}
		Spread spread = spreadOf(boosters, served, slotsLeftUnserved);
		System.out.println("boost views: " + spread);
		return spread;
	}

	/** Six boosted men and 214 others in one cell, all of them for the women there. */
	private List<Long> setUpCell(double[] at, long base) {
		List<Long> boosters = LongStream.rangeClosed(base + 1, base + 6).boxed().toList();
		boosters.forEach((id) -> save(Person.man(id, at[0], at[1])));
		LongStream.rangeClosed(base + 100, base + 313)
			.forEach((id) -> save(Person.man(id, at[0] + (id % 10) * 0.001, at[1])));
		boosters.forEach((id) -> assertThat(post(id, "/api/boosts").status()).isEqualTo(HttpStatus.CREATED.value()));
		return boosters;
	}

	/** The views per booster as served, checked against what the table counted. */
	private Spread spreadOf(List<Long> boosters, Set<List<Long>> served, int slotsLeftUnserved) {
		Map<Long, Long> views = new HashMap<>();
		boosters.forEach((booster) -> views.put(booster, 0L));
		served.forEach((pair) -> views.merge(pair.get(0), 1L, Long::sum));
		for (long booster : boosters) {
			assertThat(current(booster).views()).as("views of %d", booster).isEqualTo(views.get(booster));
		}
		return new Spread(boosters.stream().map(views::get).toList(), slotsLeftUnserved);
	}

	/**
	 * @param views served views per boosted person
	 * @param slotsLeftUnserved boost slots in decks assembled ahead, never served (they
	 * cost nobody a view)
	 */
	record Spread(List<Long> views, int slotsLeftUnserved) {

		long spread() {
			return this.views.stream().mapToLong(Long::longValue).max().orElseThrow()
					- this.views.stream().mapToLong(Long::longValue).min().orElseThrow();
		}

	}

	record Current(Instant expiresAt, long views) {

	}

	private Current current(long userId) {
		Response response = get(userId, "/api/boosts/current");
		assertThat(response.status()).as(response.body()).isEqualTo(HttpStatus.OK.value());
		JsonNode body = this.json.readTree(response.body());
		return new Current(Instant.parse(body.get("expires_at").asString()), body.get("views").asLong());
	}

}
