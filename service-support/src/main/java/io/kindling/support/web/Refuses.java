package io.kindling.support.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The refusals of its own that an endpoint answers with, besides those of the shared web
 * edge (invalid input, authentication, outages): its OpenAPI description lists each as a
 * problem response of that type.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Refuses {

	ProblemType[] value();

}
