package org.dataloader4j.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The boundaries between the project's packages, over the main classes of every module: a module
 * is the package {@code org.dataloader4j.<module>} and everything below it.
 *
 * <ul>
 *   <li>No package depends, directly or through others, on a package that depends on it: in any
 *       module, and between modules.</li>
 *   <li>No module uses another module's {@code internal} or {@code fast} packages: those are
 *       how a module does its work, not what others program against.</li>
 * </ul>
 */
class ArchitectureTest {
    private static final String ROOT = "org.dataloader4j";
    /** The modules whose classes must be here for the rules to mean anything. */
    private static final List<String> MODULES = List.of("api", "format", "core", "image", "mini", "ofrecord", "tfrecord",
            "djl", "samples", "cli", "testkit", "benchmarks", "hadoop", "spark");

    private static JavaClasses classes;

    @BeforeAll
    static void importEveryModule() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void everyModuleIsChecked() {
        Set<String> found = classes.stream()
                .map(JavaClass::getPackageName)
                .map(p -> p.substring(ROOT.length() + 1).split("\\.")[0])
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(MODULES), found);
    }

    @Test
    void noPackageCycles() {
        slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(classes);
    }

    static List<String> modules() {
        return MODULES;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modules")
    void noOtherModuleUsesTheInternalOrFastPackagesOf(String module) {
        String home = ROOT + "." + module;
        noClasses().that().resideOutsideOfPackage(home + "..")
                .should().dependOnClassesThat().resideInAnyPackage(home + "..internal..", home + "..fast..")
                .because("a module's internal and fast packages are how it works, not what others program against")
                .check(classes);
    }
}
