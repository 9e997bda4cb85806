package io.kindling.support.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The refusals of its service's own that an endpoint answers with, by slug, besides those
 * of the shared web edge (invalid input, authentication, outages): its OpenAPI
 * description lists each as a problem response, with the status and title its
 * {@link Refusal} declares. A slug that no refusal declares stops the description from
 * being built.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Refuses {

	String[] value();

}
