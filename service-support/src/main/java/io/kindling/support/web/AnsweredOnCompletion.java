package io.kindling.support.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a handler that returns a {@code CompletableFuture<ResponseEntity<T>>}: the answer is
 * written on a virtual thread the moment the future completes, not by Spring MVC's
 * asynchronous dispatch, which sends the request through the servlet filters, Spring
 * Security and the handler mapping a second time only to write an answer already known.
 * For a call that waits on another thread, as a match message waits for its writer's
 * group, that second pass, the writing of the answer aside, was 30 % of the request
 * threads' CPU.
 * <p>
 * The answer is the same as Spring MVC's: the entity's status and headers, its body as
 * JSON, which the handler's mapping must say it produces
 * ({@code produces = "application/json"}, checked at start) so that a request whose
 * {@code Accept} takes no JSON is refused before the handler runs; a future that fails is
 * answered as a handler's exception is, by the same {@code @ExceptionHandler}s; one not
 * done within the asynchronous timeout ({@code spring.mvc.async.request-timeout}, else
 * the container's own) by {@code 503}, as Spring MVC answers it.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AnsweredOnCompletion {

}
