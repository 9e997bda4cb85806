package io.kindling.matching.report;

/** The session has never sat in a room with anyone: 404. */
public class NoRoomToReport extends RuntimeException {

	NoRoomToReport() {
		super("this session has not been in a room; there is nobody to report");
	}

}
