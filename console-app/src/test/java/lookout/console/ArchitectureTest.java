package lookout.console;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The console reaches the engine only through its exported packages (module-info of lookout.engine). */
class ArchitectureTest {

    private static final JavaClasses CONSOLE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("lookout.console");

    @Test
    void consoleUsesOnlyTheEnginesExportedApi() {
        // Guard against a vacuous pass: the import must have found the console and its engine uses.
        assertThat(CONSOLE.contain(LookoutApp.class)).isTrue();
        assertThat(CONSOLE.get(LookoutApp.class).getDirectDependenciesFromSelf())
                .anyMatch(d -> d.getTargetClass().getPackageName().equals("lookout.engine.api"));

        noClasses().that().resideInAPackage("lookout.console..")
                .should().dependOnClassesThat(resideInAPackage("lookout.engine..")
                        .and(DescribedPredicate.not(resideInAnyPackage("lookout.engine.api", "lookout.engine.config"))))
                .check(CONSOLE);
    }

    @Test
    void panesDoNotReachIntoEachOther() {
        // One package per pane (STYLE): panes share only widgets and the gateway, never each other.
        String[] panes = {"configpane", "events", "resolver", "pools", "pva"};
        for (String pane : panes) {
            for (String other : panes) {
                if (!pane.equals(other)) {
                    noClasses().that().resideInAPackage("lookout.console." + pane)
                            .should().dependOnClassesThat().resideInAPackage("lookout.console." + other)
                            .check(CONSOLE);
                }
            }
        }
    }
}
