package io.kindling.matching.ban;

/** An active ban of the same subject exists: 409. */
public class AlreadyBanned extends RuntimeException {

	private final long banId;

	AlreadyBanned(long banId) {
		super("this subject is banned already, by ban " + banId);
		this.banId = banId;
	}

	public long banId() {
		return this.banId;
	}

}
