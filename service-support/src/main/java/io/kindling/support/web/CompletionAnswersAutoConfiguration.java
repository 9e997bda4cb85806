package io.kindling.support.web;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Handlers marked {@link AnsweredOnCompletion} answered where their futures complete,
 * wherever Spring MVC runs.
 */
@AutoConfiguration(after = WebMvcAutoConfiguration.class)
@ConditionalOnBean(RequestMappingHandlerAdapter.class)
public class CompletionAnswersAutoConfiguration {

	@Bean
	CompletionAnswers completionAnswers(RequestMappingHandlerAdapter adapter,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptions, WebMvcProperties mvc) {
		return new CompletionAnswers(adapter, exceptions, mvc.getAsync().getRequestTimeout());
	}

}
