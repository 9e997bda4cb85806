package io.kindling.matching.report;

import jakarta.validation.constraints.NotNull;

/** {@code POST /api/matching/reports}. */
record ReportRequest(@NotNull ReportReason reason) {

}
