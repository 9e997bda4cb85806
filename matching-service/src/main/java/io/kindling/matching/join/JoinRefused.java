package io.kindling.matching.join;

/** A join refused by one of the checks, each with its own status. */
public sealed class JoinRefused extends RuntimeException {

	JoinRefused(String message) {
		super(message);
	}

	/** On the ban list: 403. */
	public static final class Banned extends JoinRefused {

		Banned() {
			super("this session or address may not join rooms");
		}

	}

	/** No such topic, or not active: 400. */
	public static final class TopicUnavailable extends JoinRefused {

		TopicUnavailable(long topicId) {
			super("topic " + topicId + " does not exist or is not active");
		}

	}

	/** Already waiting somewhere or already in a room: 409. */
	public static final class AlreadyJoined extends JoinRefused {

		AlreadyJoined() {
			super("this session is already waiting or in a room; DELETE /api/matching first");
		}

	}

}
