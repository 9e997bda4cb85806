package io.kindling.support.web;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.async.AsyncRequestTimeoutException;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Answers the handlers marked {@link AnsweredOnCompletion}: the request goes asynchronous
 * when the handler returns, and a virtual thread writes the answer once the future
 * completes, then ends the request. It is put before Spring MVC's own handlers of return
 * values, which would take the future for its asynchronous dispatch. The answer is JSON,
 * so the application does not start with a marked handler whose mapping does not say it
 * produces JSON: where it does, Spring MVC's handler mapping refuses a request that takes
 * no JSON ({@code 406}) before the handler runs, not after it has done its work.
 */
final class CompletionAnswers implements HandlerMethodReturnValueHandler, SmartInitializingSingleton, DisposableBean {

	private static final Logger log = LoggerFactory.getLogger(CompletionAnswers.class);

	private final RequestMappingHandlerAdapter adapter;

	private final List<RequestMappingHandlerMapping> mappings;

	private final HandlerExceptionResolver exceptions;

	private final @Nullable Duration timeout;

	private final ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor();

	/**
	 * @param timeout how long a future may take
	 * ({@code spring.mvc.async.request-timeout}); null for the container's own
	 */
	CompletionAnswers(RequestMappingHandlerAdapter adapter, List<RequestMappingHandlerMapping> mappings,
			HandlerExceptionResolver exceptions, @Nullable Duration timeout) {
		this.adapter = adapter;
		this.mappings = mappings;
		this.exceptions = exceptions;
		this.timeout = timeout;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.mappings.forEach(CompletionAnswers::requireJsonProduced);
		List<HandlerMethodReturnValueHandler> handlers = new ArrayList<>();
		handlers.add(this);
		handlers.addAll(Objects.requireNonNull(this.adapter.getReturnValueHandlers()));
		this.adapter.setReturnValueHandlers(handlers);
	}

	/**
	 * @throws IllegalStateException for a marked handler whose mapping may produce other
	 * than JSON
	 */
	private static void requireJsonProduced(RequestMappingHandlerMapping mapping) {
		mapping.getHandlerMethods().forEach((RequestMappingInfo info, HandlerMethod handler) -> {
			if (!handler.hasMethodAnnotation(AnsweredOnCompletion.class)) {
				return;
			}
			Set<MediaType> produced = info.getProducesCondition().getProducibleMediaTypes();
			if (produced.isEmpty() || !produced.stream().allMatch(MediaType.APPLICATION_JSON::isCompatibleWith)) {
				throw new IllegalStateException(handler + " is answered on completion, as JSON, so its mapping "
						+ "must say produces = \"application/json\" (it says " + produced + ")");
			}
		});
	}

	@Override
	public boolean supportsReturnType(MethodParameter returnType) {
		return returnType.hasMethodAnnotation(AnsweredOnCompletion.class)
				&& CompletableFuture.class.isAssignableFrom(returnType.getParameterType());
	}

	@Override
	public void handleReturnValue(@Nullable Object returnValue, MethodParameter returnType,
			ModelAndViewContainer mavContainer, NativeWebRequest webRequest) {
		mavContainer.setRequestHandled(true);
		HttpServletRequest request = Objects.requireNonNull(webRequest.getNativeRequest(HttpServletRequest.class));
		HttpServletResponse response = Objects.requireNonNull(webRequest.getNativeResponse(HttpServletResponse.class));
		CompletableFuture<?> future = (CompletableFuture<?>) Objects.requireNonNull(returnValue);
		if (future.isDone()) {
			future.whenComplete((result, failure) -> answer(request, response, result, failure));
			return;
		}
		AsyncContext async = request.startAsync(request, response);
		if (this.timeout != null) {
			async.setTimeout(this.timeout.toMillis());
		}
		// whichever comes first answers: the future, the timeout or the client gone
		AtomicBoolean answered = new AtomicBoolean();
		async.addListener(new Unanswered(answered));
		future.whenCompleteAsync((result, failure) -> {
			if (answered.compareAndSet(false, true)) {
				answer(request, response, result, failure);
				async.complete();
			}
		}, this.writers);
	}

	private void answer(HttpServletRequest request, HttpServletResponse response, @Nullable Object result,
			@Nullable Throwable failure) {
		try {
			if (failure == null && result instanceof ResponseEntity<?> entity) {
				write(response, entity);
			}
			else {
				fail(request, response, (failure != null) ? failure
						: new IllegalStateException("A future completed with " + result + ", not a ResponseEntity"));
			}
		}
		catch (IOException ex) {
			log.debug("An answer could not be written; the client has gone", ex);
		}
		catch (RuntimeException ex) {
			log.error("An answer could not be written", ex);
			unanswered(response);
		}
	}

	/** A 500, which the container's error page writes as a problem detail. */
	private static void unanswered(HttpServletResponse response) {
		if (response.isCommitted()) {
			return;
		}
		try {
			response.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
		}
		catch (IOException ex) {
			log.debug("The client has gone", ex);
		}
	}

	private void write(HttpServletResponse response, ResponseEntity<?> entity) throws IOException {
		response.setStatus(entity.getStatusCode().value());
		entity.getHeaders().forEach((name, values) -> values.forEach((value) -> response.addHeader(name, value)));
		Object body = entity.getBody();
		if (body != null) {
			converterFor(body).write(body, MediaType.APPLICATION_JSON, new ServletServerHttpResponse(response));
		}
	}

	@SuppressWarnings("unchecked")
	private HttpMessageConverter<Object> converterFor(Object body) {
		for (HttpMessageConverter<?> converter : this.adapter.getMessageConverters()) {
			if (converter.canWrite(body.getClass(), MediaType.APPLICATION_JSON)) {
				return (HttpMessageConverter<Object>) converter;
			}
		}
		throw new IllegalStateException("No converter writes " + body.getClass() + " as JSON");
	}

	/** The failure answered as the same exception thrown by a handler is. */
	private void fail(HttpServletRequest request, HttpServletResponse response, Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		Exception ex = (cause instanceof RuntimeException runtime) ? runtime : new IllegalStateException(cause);
		this.exceptions.resolveException(request, response, null, ex);
	}

	@Override
	public void destroy() {
		this.writers.close();
	}

	/** A request whose future did not complete in time, or whose client went away. */
	private final class Unanswered implements AsyncListener {

		private final AtomicBoolean answered;

		Unanswered(AtomicBoolean answered) {
			this.answered = answered;
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			if (this.answered.compareAndSet(false, true)) {
				fail((HttpServletRequest) event.getSuppliedRequest(), (HttpServletResponse) event.getSuppliedResponse(),
						new AsyncRequestTimeoutException());
				event.getAsyncContext().complete();
			}
		}

		@Override
		public void onError(AsyncEvent event) {
			if (this.answered.compareAndSet(false, true)) {
				event.getAsyncContext().complete();
			}
		}

		@Override
		public void onComplete(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
		}

	}

}
