package io.kindling.support.web;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.catalina.Container;
import org.apache.catalina.Context;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * Tomcat's own error report, for what Tomcat refuses before any servlet sees the request
 * (a {@code %00} or a bad percent-encoding in the path, a malformed header), as a problem
 * detail instead of its HTML page.
 */
public class ProblemReportValve extends ErrorReportValve {

	/** Puts this valve in the place of the host's error report valves. */
	static void install(Context context) {
		Container parent = context.getParent();
		if (parent == null) {
			return;
		}
		for (Valve valve : parent.getPipeline().getValves()) {
			if (valve instanceof ErrorReportValve && !(valve instanceof ProblemReportValve)) {
				parent.getPipeline().removeValve(valve);
			}
		}
		parent.getPipeline().addValve(new ProblemReportValve());
		if (parent instanceof StandardHost host) {
			// the host adds a valve of this class at start unless one is there
			host.setErrorReportValveClass(ProblemReportValve.class.getName());
		}
	}

	@Override
	protected void report(Request request, Response response, Throwable throwable) {
		int status = response.getStatus();
		if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
			return;
		}
		AtomicBoolean ioAllowed = new AtomicBoolean(false);
		response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
		if (!ioAllowed.get()) {
			return;
		}
		if (status == 501) {
			// CONNECT, an unknown transfer coding: what the caller sent is refused, a 4xx
			response.setStatus(400);
			status = 400;
		}
		ProblemType type = ProblemType.forStatus(status);
		String body = "{\"type\":\"" + type.uri() + "\",\"title\":\"" + type.title() + "\",\"status\":" + status
				+ ",\"detail\":\"" + ContainerErrors.detail(type) + "\"}";
		try {
			response.setContentType("application/problem+json");
			response.setCharacterEncoding("UTF-8");
			Writer writer = response.getReporter();
			if (writer != null) {
				writer.write(body);
				response.finishResponse();
			}
		}
		catch (IOException | IllegalStateException ex) {
			// the client is gone or the response is committed: nothing more to say
		}
	}

}
