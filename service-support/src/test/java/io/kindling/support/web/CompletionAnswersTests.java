package io.kindling.support.web;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.kindling.infra.http.Request;
import io.kindling.infra.http.Response;
import io.kindling.infra.http.ServiceClient;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A handler marked {@link AnsweredOnCompletion} is answered where its future completes:
 * the same answer Spring MVC would write, without a second pass through the filters.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.mvc.async.request-timeout=2s", "kindling.web.overload.retry-after=3s" })
class CompletionAnswersTests {

	@LocalServerPort
	int port;

	@Autowired
	EdgeTestApplication.Later later;

	@Autowired
	List<DispatcherType> dispatches;

	@Autowired
	MeterRegistry meters;

	@BeforeEach
	void forget() {
		this.dispatches.clear();
	}

	@Test
	void theAnswerIsWrittenOnceTheFutureCompletesWithoutASecondDispatch() throws Exception {
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<Response> asked = threads.submit(() -> http().get("/later?id=created", null));
			this.later.awaitAsked("created")
				.complete(ResponseEntity.status(201).header("X-Later", "yes").body(Map.of("done", true)));
			Response answer = asked.get(30, TimeUnit.SECONDS);

			assertThat(answer.status()).isEqualTo(201);
			assertThat(answer.header("X-Later")).hasValue("yes");
			assertThat(answer.header("Content-Type")).hasValue("application/json");
			assertThat(answer.header("Content-Length")).hasValue("13");
			assertThat(answer.body()).isEqualTo("{\"done\":true}");
		}
		// through the filters once: Spring MVC's own asynchronous answer dispatches again
		assertThat(this.dispatches).containsExactly(DispatcherType.REQUEST);
		// and timed as every request is, once it ended
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(
					this.meters.find("http.server.requests").tags("uri", "/later", "status", "201").timer())
				.isNotNull());
	}

	@Test
	void aFutureDoneBeforeTheHandlerReturnedIsAnsweredAtOnce() {
		this.later.future("done").complete(ResponseEntity.ok(Map.of("done", true)));

		Response answer = http().get("/later?id=done", null);

		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.body()).isEqualTo("{\"done\":true}");
		assertThat(this.dispatches).containsExactly(DispatcherType.REQUEST);
	}

	@Test
	void aFailedFutureIsAnsweredAsTheSameExceptionThrownByAHandlerIs() throws Exception {
		Response refused = failedWith("refused",
				EdgeTestApplication.TestRefusals.ALREADY_DONE.refused("It was done before."));
		assertThat(refused.status()).isEqualTo(409);
		assertThat(refused.header("Content-Type")).hasValue("application/problem+json");
		assertThat(refused.json().get("type").asString()).isEqualTo("https://kindling.io/problems/already-done");
		assertThat(refused.json().get("detail").asString()).isEqualTo("It was done before.");

		Response overloaded = failedWith("overloaded", ProblemType.OVERLOADED.refused("The queue is full."));
		assertThat(overloaded.status()).isEqualTo(503);
		assertThat(overloaded.header("Retry-After")).hasValue("3");

		Response outage = failedWith("outage", new DataAccessResourceFailureException("Cannot get Jedis connection"));
		assertThat(outage.status()).isEqualTo(503);
		assertThat(outage.json().get("type").asString()).isEqualTo("https://kindling.io/problems/unavailable");
		assertThat(outage.header("Retry-After")).hasValue("1");

		Response bug = failedWith("bug", new IllegalStateException("secret internals"));
		assertThat(bug.status()).isEqualTo(500);
		assertThat(bug.body()).doesNotContain("secret");
	}

	@Test
	void anAnswerThatCannotBeWrittenIsAnInternalError() throws Exception {
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<Response> asked = threads.submit(() -> http().get("/later?id=unwritable", null));
			this.later.awaitAsked("unwritable").complete(ResponseEntity.ok(Map.of("what", new Unwritable("x"))));
			Response answer = asked.get(30, TimeUnit.SECONDS);

			assertThat(answer.status()).isEqualTo(500);
			assertThat(answer.header("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(answer.json().get("type").asString()).isEqualTo("https://kindling.io/problems/internal-error");
		}
	}

	@Test
	void anAcceptWithoutJsonIsRefusedBeforeTheHandlerRuns() {
		Response answer = http().send(Request.get("/later?id=png").header("Accept", "image/png"));

		assertThat(answer.status()).isEqualTo(406);
		assertThat(answer.json().get("type").asString()).isEqualTo("https://kindling.io/problems/not-acceptable");
		assertThat(this.later.asked("png")).isFalse();
	}

	@Test
	void aMarkedHandlerWhoseMappingMayAnswerOtherThanJsonStopsTheStart() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(JacksonAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class,
							WebMvcAutoConfiguration.class, CompletionAnswersAutoConfiguration.class))
			.withUserConfiguration(AnyAnswer.class)
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalStateException.class)
				.hasMessageContaining("AnyAnswer#any()")
				.hasMessageContaining("must say produces = \"application/json\" (it says [])"));
	}

	@Test
	void aFutureNotDoneInTimeIsAnsweredUnavailable() {
		long asked = System.nanoTime();
		Response answer = http().get("/later?id=never", null);

		assertThat(Duration.ofNanos(System.nanoTime() - asked)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
		assertThat(answer.status()).isEqualTo(503);
		assertThat(answer.header("Content-Type")).hasValue("application/problem+json");
		// completed after its answer, it writes nothing more
		this.later.future("never").complete(ResponseEntity.ok(Map.of("done", true)));
		assertThat(http().get("/page", null).status()).isEqualTo(200);
	}

	private Response failedWith(String id, RuntimeException failure) throws Exception {
		try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
			Future<Response> asked = threads.submit(() -> http().get("/later?id=" + id, null));
			this.later.awaitAsked(id).completeExceptionally(failure);
			return asked.get(30, TimeUnit.SECONDS);
		}
	}

	private ServiceClient http() {
		return new ServiceClient(this.port);
	}

	/** A marked handler that says nothing of what it produces. */
	@RestController
	static class AnyAnswer {

		@GetMapping("/any")
		@AnsweredOnCompletion
		CompletableFuture<ResponseEntity<String>> any() {
			return CompletableFuture.completedFuture(ResponseEntity.ok("any"));
		}

	}

	/** A body whose JSON fails half way. */
	record Unwritable(String what) {

		@Override
		public String what() {
			throw new IllegalStateException("not today");
		}

	}

	@TestConfiguration
	static class Dispatches {

		@Bean
		List<DispatcherType> dispatches() {
			return new CopyOnWriteArrayList<>();
		}

		/** Notes each pass of a {@code /later} request through the filters. */
		@Bean
		FilterRegistrationBean<Filter> dispatchRecorder(List<DispatcherType> dispatches) {
			Filter recorder = new Filter() {
				@Override
				public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
						throws IOException, ServletException {
					if (((HttpServletRequest) request).getRequestURI().equals("/later")) {
						dispatches.add(request.getDispatcherType());
					}
					chain.doFilter(request, response);
				}
			};
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(recorder);
			registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC, DispatcherType.ERROR);
			return registration;
		}

	}

}
