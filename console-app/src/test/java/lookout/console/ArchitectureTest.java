package lookout.console;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.module.ModuleDescriptor;
import lookout.engine.api.Engine;
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
                        .and(DescribedPredicate.not(resideInAnyPackage(exported()))))
                .check(CONSOLE);
    }

    /** The packages lookout.engine exports, read from its module descriptor (not a copy of it). */
    private static String[] exported() {
        ModuleDescriptor d = Engine.class.getModule().getDescriptor();
        assertThat(d).as("the engine runs as a named module").isNotNull();
        String[] packages = d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .toArray(String[]::new);
        assertThat(packages).contains("lookout.engine.api", "lookout.engine.config").doesNotContain("lookout.engine.core");
        return packages;
    }

    /**
     * MVVM (STYLE, after JabRef): a view model holds state and commands, never a node or control, so
     * it is tested without a toolkit and the view stays thin. javafx.base (properties, observable
     * collections) is fine; javafx.scene is the view's.
     */
    @Test
    void viewModelsUseNoSceneClasses() {
        assertThat(CONSOLE.stream().filter(c -> c.getSimpleName().endsWith("ViewModel")).count())
                .as("view models found").isGreaterThanOrEqualTo(6);
        noClasses().that().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..", "org.controlsfx..")
                .because("a view model is tested without a toolkit; scene classes belong to its view")
                .check(CONSOLE);
    }

    @Test
    void panesDoNotReachIntoEachOther() {
        // One package per pane (STYLE): panes share only widgets and the gateway, never each other.
        String[] panes = {"configpane", "events", "resolver", "pools", "pva", "configedit", "fleet"};
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

    /**
     * {@code lookout ctl} and the remote engine run without a toolkit: ctl must not start JavaFX,
     * and the control client is shared by the console, ctl and the fleet's gateway.
     */
    @Test
    void ctlAndTheRemoteEngineNeedNoToolkitAndNoEngineOfTheirOwn() {
        assertThat(CONSOLE.contain(lookout.console.cli.Ctl.class)).isTrue();
        noClasses().that().resideInAnyPackage("lookout.console.cli", "lookout.console.remote")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.controlsfx..")
                .check(CONSOLE);
        noClasses().that().resideInAPackage("lookout.console.remote")
                .or().haveFullyQualifiedName(lookout.console.cli.Ctl.class.getName())
                .should().dependOnClassesThat().resideInAnyPackage("lookout.engine.boot..")
                .because("ctl and an attached console start no engine")
                .check(CONSOLE);
    }
}
