package io.kindling.swipe.report;

/**
 * Why someone is reported: a fixed list, so moderators can sort and count reports, with
 * the details in free text beside it. docs/swipes.md lists them for clients.
 */
enum ReportReason {

	/** Not who they say they are: stolen photos, a bot, a catfish. */
	FAKE_PROFILE,
	/** Nude, violent or hateful photos or words in the profile. */
	INAPPROPRIATE_CONTENT,
	/** Threats, insults, unwanted sexual messages. */
	HARASSMENT,
	/** Selling something, asking for money, links to elsewhere. */
	SPAM_OR_SCAM,
	/** Looks younger than 18. */
	UNDERAGE,
	/** Something that happened when meeting in person. */
	OFFLINE_BEHAVIOUR,
	/** Anything else: say what in {@code details}. */
	OTHER

}
