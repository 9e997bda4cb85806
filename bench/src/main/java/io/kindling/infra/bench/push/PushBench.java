package io.kindling.infra.bench.push;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.kindling.infra.bench.BenchHost;
import io.kindling.infra.bench.BenchOptions;
import io.kindling.infra.bench.BenchStack;
import io.kindling.infra.bench.CpuTime;
import io.kindling.infra.bench.LatencyRate;
import io.kindling.infra.bench.Load;
import io.kindling.infra.bench.Load.Result;
import io.kindling.infra.bench.Phase;
import io.kindling.infra.bench.Table;
import io.kindling.infra.bench.push.OnlineUsers.Seen;
import io.kindling.infra.bench.swipes.Profiles;
import io.kindling.infra.http.ServiceClient;
import io.kindling.infra.servers.ServiceJar;
import org.HdrHistogram.Histogram;

import static io.kindling.infra.bench.Percentiles.ms;

/**
 * {@code ./kindling bench push [--seconds 30] [--warmup 60] [--online 200] [--instances 2] [--rate <matches/s>]}:
 * how soon a person learns of a match the other person made, by push and by polling, in
 * one run. Starts its own Redis, MariaDB and two swipe-service jars on free ports. First
 * it measures the maximum rate of matches on instance A ({@link Likes#pairs}: two users
 * liking each other, 32 clients, after a warm-up); the push phase then runs at a quarter
 * of it (or {@code --rate}), so its latency is taken at the same share of any machine's
 * capacity. {@code --online} users are online on instance B ({@link OnlineUsers}). Each
 * has liked many others beforehand; at the rate (an open loop on A) one of those others
 * likes an online user back, which makes a match, spread evenly over the online users.
 * For each match the bench records when the online user's stream got its
 * {@code match_created} and when its poll first listed it, both from the match's
 * {@code matched_at} (stamped by the service before the match's transaction commits, on
 * this machine's clock, so a little more than the time from the commit). The first
 * {@code --warmup} seconds at the rate count apart: until the push path is compiled on B
 * each match costs it several times the CPU. Stops everything it started.
 */
public final class PushBench {

	/**
	 * The bound the push is held to: p99 from the commit to the other person's stream.
	 */
	private static final double PUSH_P99_BOUND_MS = 100;

	/**
	 * The bench swipes far more than a person does in a day: daily limits off. The
	 * maximum's 32 clients: the concurrency limit off too
	 * ({@link BenchStack#NO_OVERLOAD_LIMIT}).
	 */
	private static final List<String> SETTINGS = List.of("--kindling.swipe.daily-likes=0",
			"--kindling.swipe.daily-super-likes=0", BenchStack.NO_OVERLOAD_LIMIT);

	private PushBench() {
	}

	public static void main(String[] args) throws Exception {
		BenchOptions options = BenchOptions.of(args);
		int seconds = (int) options.number("--seconds", 30);
		int warmup = (int) options.number("--warmup", 60);
		int online = (int) options.number("--online", 200);
		int instances = (int) options.number("--instances", 2);
		int maxSeconds = (int) options.number("--max-seconds", 10);
		try (BenchStack stack = BenchStack.of("push", options).redis().mariaDb("kindling_swipe").start()) {
			ServiceJar a = stack.startService("swipe-service", "512m", "swipe-service-a.log", SETTINGS);
			ServiceJar b = (instances > 1)
					? stack.startService("swipe-service", "512m", "swipe-service-b.log", SETTINGS) : a;
			Profiles.seed(stack, 1, online);
			ServiceClient swipesOnA = new ServiceClient(a.port(), Duration.ofSeconds(10));
			ServiceClient onlineOnB = new ServiceClient(b.port(), Duration.ofSeconds(10));
			Likes likes = new Likes(swipesOnA, stack);
			String where = (instances > 1) ? "matches made on A, streams and polls on B" : "one instance";
			System.out.printf("push bench: %d online users, %s, %d s measured after %d s of warm-up%n", online, where,
					seconds, warmup);

			System.out.printf("the maximum: pairs of users liking each other on A, %d s after %d s of warm-up...%n",
					maxSeconds, 3 * maxSeconds);
			likes.pairs(32, 3 * maxSeconds);
			Phase maximum = stack.measure(() -> likes.pairs(32, maxSeconds));
			LatencyRate latencyRate = LatencyRate.of(options, maximum.perSecond());
			double rate = latencyRate.perSecond();
			// every match needs a partner of its own: a pair matches once
			int partners = (int) Math.ceil(rate * (warmup + seconds + 5));
			long firstPartner = online + 1;
			Profiles.seed(stack, firstPartner, partners);
			System.out.printf("the online users like their %,d partners first...%n", partners);
			long likesStarted = System.nanoTime();
			likes.likeEveryPartner(online, firstPartner, partners);
			System.out.printf("  done in %.1f s%n", (System.nanoTime() - likesStarted) / 1e9);

			OnlineUsers users = OnlineUsers.start(onlineOnB, stack, online);
			System.out.printf("partners like back at %.0f matches/s (%s)...%n", rate, latencyRate.source());
			// the CPU from the first measured call: the warm-up's is not the steady
			// state's
			AtomicReference<CpuMark> measuredFrom = new AtomicReference<>();
			Load.OpenResult run = Load.openLoop(rate, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds),
					(call) -> {
						if (call.measured() && measuredFrom.get() == null) {
							measuredFrom.compareAndSet(null, new CpuMark(System.nanoTime(), stack.cpu()));
						}
						if (call.index() >= partners) {
							call.finish();
							return;
						}
						long partner = firstPartner + call.index();
						long match = likes.like(partner, 1 + call.index() % online, "back-" + partner, true);
						call.count(Likes.MATCHES);
						if (call.measured()) {
							users.made.add(match);
						}
					});
			// a poll lists a match at most a second after it is made; give the slowest
			// two
			TimeUnit.SECONDS.sleep(2);
			CpuMark from = measuredFrom.get();
			CpuTime cpu = (from != null) ? stack.cpu().minus(from.cpu()) : CpuTime.NONE;
			double wallSeconds = (from != null) ? (System.nanoTime() - from.nanos()) / 1e9 : 0;
			users.stop();
			Seen seen = users.seen();
			Result swipes = run.measured();

			System.out.printf(
					"%nMaximum on A: %,.0f matches/s (%d clients, each like that makes a match p50 / p99 %s). Then %.0f matches/s (%s)"
							+ " for %d s (%,d made), %d online users each polling once a second, %s; from matched_at to the other person knowing:%n%n",
					maximum.perSecond(), 32, maximum.p50p99(), rate, latencyRate.source(), seconds, users.made.size(),
					online, where);
			Table table = Table
				.columns("how the other person learns of the match", "matches", "p50 ms", "p90 ms", "p99 ms", "max ms",
						"missed")
				.right(1, 2, 3, 4, 5, 6);
			row(table, "push: match_created on GET /api/events", seen.pushed(), seen.notPushed());
			row(table, "poll: GET /api/matches once a second", seen.polled(), seen.notPolled());
			table.print();
			if (users.made.isEmpty()) {
				System.out.printf("%nno match was made in the measured seconds: see the swipes' errors below.%n");
			}
			else {
				System.out.printf("%npush p99 ≤ %.0f ms: %s; push p99 is %.0f times shorter than the poll's.%n",
						PUSH_P99_BOUND_MS,
						(ms(seen.pushed(), 99) <= PUSH_P99_BOUND_MS && seen.notPushed() == 0) ? "met" : "not met",
						ms(seen.polled(), 99) / Math.max(0.001, ms(seen.pushed(), 99)));
			}
			System.out.printf(
					"the liking-back swipe itself (open loop, from when it was due): p50 %.1f ms, p99 %.1f ms, %.0f/s achieved; errors %d %s; polls that failed %d%n",
					swipes.ms(50), swipes.ms(99), swipes.perSecond(), swipes.errors() + run.leadIn().errors(),
					swipes.errorKinds(), users.pollErrors.get());
			long made = swipes.count(Likes.MATCHES);
			System.out.printf(
					"CPU over the measured seconds, per match made in them (%,d), polls and pushes included: services %.2f ms, MariaDB %.2f ms, Redis %.2f ms, the bench %.2f ms; %.2f cores busy with these of %d%n",
					made, CpuTime.msPer(cpu.services(), made), CpuTime.msPer(cpu.mariaDb(), made),
					CpuTime.msPer(cpu.redis(), made), CpuTime.msPer(cpu.bench(), made),
					cpu.total().toNanos() / 1e9 / wallSeconds, Runtime.getRuntime().availableProcessors());
			System.out.printf("errors in the maximum's pairs: %d %s; load average at the end %s%n",
					maximum.result().errors(), maximum.result().errorKinds(), BenchHost.loadAverage(" "));
			// behind its schedule, the open loop sends in bursts as answers free up, and
			// what is timed is a queue, not the push
			if (swipes.perSecond() < 0.95 * rate || swipes.ms(50) > 1_000) {
				System.out.printf(
						"the services did not keep up with %.0f matches/s on this machine now (%.0f/s, swipe p50 %.0f ms): the figures above measure a backlog; run again when it is quieter or with a lower --rate%n",
						rate, swipes.perSecond(), swipes.ms(50));
			}
		}
	}

	private static void row(Table table, String way, Histogram latency, long missed) {
		table.row(way, latency.getTotalCount(), String.format("%.1f", ms(latency, 50)),
				String.format("%.1f", ms(latency, 90)), String.format("%.1f", ms(latency, 99)),
				String.format("%.1f", ms(latency, 100)), missed);
	}

	/** The CPU the stack had spent at a moment ({@link System#nanoTime()}). */
	private record CpuMark(long nanos, CpuTime cpu) {

	}

}
