package io.kindling.relay;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.kindling.infra.test.WebEdgeRules;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** Feature code speaks no HTTP, and features never depend on each other in circles. */
@AnalyzeClasses(packages = "io.kindling.relay", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

	@ArchTest
	static final ArchRule featureCodeSpeaksNoHttp = WebEdgeRules.featureCodeSpeaksNoHttp("io.kindling.relay");

	@ArchTest
	static final ArchRule featuresDoNotDependOnEachOtherInCycles = slices().matching("io.kindling.relay.(*)..")
		.should()
		.beFreeOfCycles();

}
