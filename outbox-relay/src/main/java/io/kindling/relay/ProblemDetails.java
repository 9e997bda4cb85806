package io.kindling.relay;

import io.kindling.relay.parked.AdminTokenMissing;
import io.kindling.relay.parked.ParkedRowNotFound;
import jakarta.validation.ConstraintViolationException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/** The relay's one error shape: RFC 9457 problem details. */
@RestControllerAdvice
class ProblemDetails extends ResponseEntityExceptionHandler {

	@ExceptionHandler
	ResponseEntity<ProblemDetail> adminTokenMissing(AdminTokenMissing ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED, ex.getMessage());
		problem.setTitle("Admin token required");
		return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
			.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
			.body(problem);
	}

	@ExceptionHandler
	ProblemDetail parkedRowNotFound(ParkedRowNotFound ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
		problem.setTitle("Parked row not found");
		return problem;
	}

	@ExceptionHandler
	ProblemDetail constraintViolation(ConstraintViolationException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setTitle("Bad request");
		return problem;
	}

}
