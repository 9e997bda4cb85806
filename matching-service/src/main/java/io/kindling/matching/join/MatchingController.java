package io.kindling.matching.join;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;

import io.kindling.matching.queue.MatchQueue;
import io.kindling.matching.session.Session;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

@RestController
class MatchingController {

	private final JoinService joins;

	MatchingController(JoinService joins) {
		this.joins = joins;
	}

	/**
	 * The session comes first, so a request without one is 401 before its body is read.
	 */
	@PostMapping("/api/matching")
	ResponseEntity<MatchingStatus> join(Session session, @Valid @RequestBody JoinRequest request,
			HttpServletRequest http) {
		MatchingStatus status = this.joins.join(session, http.getRemoteAddr(),
				new MatchQueue(request.topicId(), request.size()));
		return ResponseEntity.status((status instanceof MatchingStatus.Matched) ? HttpStatus.OK : HttpStatus.ACCEPTED)
			.body(status);
	}

	@GetMapping("/api/matching")
	MatchingStatus status(Session session, HttpServletRequest http) {
		return this.joins.status(session, http.getRemoteAddr());
	}

	@DeleteMapping("/api/matching")
	@ResponseStatus(HttpStatus.NO_CONTENT)
	void leave(Session session) {
		this.joins.leave(session);
	}

}
