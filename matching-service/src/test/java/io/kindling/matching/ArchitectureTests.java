package io.kindling.matching;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.kindling.infra.test.WebEdgeRules;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** Features talk through a few public types and never in circles. */
@AnalyzeClasses(packages = "io.kindling.matching", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

	@ArchTest
	static final ArchRule featuresDoNotDependOnEachOtherInCycles = slices().matching("io.kindling.matching.(*)..")
		.should()
		.beFreeOfCycles();

	@ArchTest
	static final ArchRule onlyTheWebEdgeKnowsTheErrorShape = noClasses().that()
		.resideOutsideOfPackage("io.kindling.matching.web..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("io.kindling.matching.web..");

	@ArchTest
	static final ArchRule redisIsReachedOnlyThroughTheScriptsAndAdapters = noClasses().that()
		.resideInAnyPackage("io.kindling.matching.join..", "io.kindling.matching.room..",
				"io.kindling.matching.topic..", "io.kindling.matching.ban..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("redis.clients..", "org.springframework.data.redis..");

	@ArchTest
	static final ArchRule controllersDoNotTouchStorage = noClasses().that()
		.haveSimpleNameEndingWith("Controller")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("org.springframework.jdbc..", "org.springframework.data.redis..");

	@ArchTest
	static final ArchRule featureCodeSpeaksNoHttp = WebEdgeRules.featureCodeSpeaksNoHttp("io.kindling.matching");

}
