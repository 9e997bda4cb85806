package io.kindling.push;

import java.util.Arrays;
import java.util.Set;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import org.springdoc.core.customizers.GlobalOperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;

import org.springframework.web.method.HandlerMethod;

/**
 * In the OpenAPI description, a handler's {@link LastEventId} is what the client sends:
 * the header, or the query parameter beside a new ticket.
 */
final class LastEventIdParameters implements GlobalOperationCustomizer {

	LastEventIdParameters() {
		SpringDocUtils.getConfig().addRequestWrapperToIgnore(LastEventId.class);
	}

	@Override
	public Operation customize(Operation operation, HandlerMethod handler) {
		if (Arrays.stream(handler.getMethodParameters())
			.anyMatch((parameter) -> parameter.getParameterType() == LastEventId.class)) {
			operation.addParametersItem(new Parameter().in("header")
				.name(LastEventId.HEADER)
				.description("The id of the last event this client got, sent by a browser's own reconnect: "
						+ "the stream sends what came after it, nothing twice")
				.schema(new JsonSchema().types(Set.of("string"))));
			operation.addParametersItem(new Parameter().in("query")
				.name(LastEventId.PARAMETER)
				.description("As " + LastEventId.HEADER + ", for a page that opens a new stream with a new ticket "
						+ "(the header wins)")
				.schema(new JsonSchema().types(Set.of("string"))));
		}
		return operation;
	}

}
