package io.kindling.support.web;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Handlers marked {@link AnsweredOnCompletion} answered where their futures complete,
 * wherever Spring MVC runs.
 */
@AutoConfiguration(after = WebMvcAutoConfiguration.class)
@ConditionalOnBean(RequestMappingHandlerAdapter.class)
public class CompletionAnswersAutoConfiguration {

	@Bean
	CompletionAnswers completionAnswers(RequestMappingHandlerAdapter adapter,
			ObjectProvider<RequestMappingHandlerMapping> mappings,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver exceptions, WebMvcProperties mvc) {
		return new CompletionAnswers(adapter, mappings.orderedStream().toList(), exceptions,
				mvc.getAsync().getRequestTimeout());
	}

}
