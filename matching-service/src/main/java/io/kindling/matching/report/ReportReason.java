package io.kindling.matching.report;

/** Why a room's others are reported; moderation sorts reports by it. */
enum ReportReason {

	HARASSMENT, HATE, SEXUAL_CONTENT, SPAM, UNDERAGE, SELF_HARM, OTHER

}
