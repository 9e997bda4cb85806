package io.kindling.matching.ban;

/** No ban has this id: 404. */
public class NoSuchBan extends RuntimeException {

	NoSuchBan(long id) {
		super("no ban has id " + id);
	}

}
