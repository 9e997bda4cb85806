package io.kindling.support.web;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * A JSON body is UTF-8 (RFC 8259): one that is not, such as an overlong {@code /} or a
 * lone surrogate, which Jackson's own decoder lets through, is refused before it is
 * parsed. Bodies are small (the body-size limit), so reading one whole costs little.
 */
@ControllerAdvice
class StrictUtf8Bodies extends RequestBodyAdviceAdapter {

	@Override
	public boolean supports(MethodParameter parameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) {
		return true;
	}

	@Override
	public HttpInputMessage beforeBodyRead(HttpInputMessage input, MethodParameter parameter, Type targetType,
			Class<? extends HttpMessageConverter<?>> converterType) throws IOException {
		MediaType type = input.getHeaders().getContentType();
		if (type != null && type.getCharset() != null && !StandardCharsets.UTF_8.equals(type.getCharset())) {
			return input;
		}
		byte[] body = input.getBody().readAllBytes();
		try {
			StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(body));
		}
		catch (CharacterCodingException ex) {
			throw new HttpMessageNotReadableException("the body is not valid UTF-8", ex, input);
		}
		return new HttpInputMessage() {

			@Override
			public InputStream getBody() {
				return new ByteArrayInputStream(body);
			}

			@Override
			public HttpHeaders getHeaders() {
				return input.getHeaders();
			}

		};
	}

}
