package io.kindling.matching.session;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@link Session} parameter of an event-stream endpoint: the session may also come
 * from a stream ticket ({@code ?ticket=}), which then alone decides, since a browser's
 * {@code EventSource} cannot send the {@code Authorization} header.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface OrStreamTicket {

}
