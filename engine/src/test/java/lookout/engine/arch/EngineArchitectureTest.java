package lookout.engine.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import lookout.engine.api.Engine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Architecture rules of the engine module (Foundation acceptance: the engine depends on nothing
 * from JavaFX), and that the exported API does not leak module-internal types through its public
 * signatures (a console compiled against the API could not name them).
 */
class EngineArchitectureTest {

    private static JavaClasses engine;
    private static Set<String> exported;

    @BeforeAll
    static void importEngine() throws IOException {
        engine = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("lookout.engine");
        // The exported packages come from the compiled module descriptor itself, so this test
        // follows module-info.java rather than a copy of it.
        Path classes;
        try {
            classes = Path.of(Engine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Path descriptor = Files.isDirectory(classes) ? classes.resolve("module-info.class") : classes;
        try (InputStream in = Files.isDirectory(classes) ? Files.newInputStream(descriptor)
                : new java.util.jar.JarFile(classes.toFile()).getInputStream(
                        new java.util.jar.JarFile(classes.toFile()).getEntry("module-info.class"))) {
            ModuleDescriptor d = ModuleDescriptor.read(in);
            if (!d.name().equals("lookout.engine")) {
                throw new IllegalStateException("found the descriptor of " + d.name());
            }
            exported = d.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                    .collect(Collectors.toUnmodifiableSet());
        }
    }

    @Test
    void engineDependsOnNothingFromJavaFx() {
        noClasses().that().resideInAPackage("lookout.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "com.sun.javafx..", "org.controlsfx..")
                .because("the engine runs headless; the console sits on top of it (SPEC §Layout)")
                .check(engine);
    }

    @Test
    void engineDependsOnNothingFromTheConsole() {
        noClasses().that().resideInAPackage("lookout.engine..")
                .should().dependOnClassesThat().resideInAPackage("lookout.console..")
                .check(engine);
    }

    @Test
    void exportedApiDoesNotLeakInternalTypes() {
        classes().that(exportedPublic())
                .should(notExposeInternalTypes())
                .check(engine);
    }

    private static com.tngtech.archunit.base.DescribedPredicate<JavaClass> exportedPublic() {
        return com.tngtech.archunit.base.DescribedPredicate.describe("public classes of exported packages",
                c -> exported.contains(c.getPackageName()) && c.getModifiers().contains(JavaModifier.PUBLIC));
    }

    private static boolean internal(JavaClass t) {
        JavaClass base = t.getBaseComponentType();
        String pkg = base.getPackageName();
        return pkg.startsWith("lookout.engine") && !exported.contains(pkg);
    }

    private static ArchCondition<JavaClass> notExposeInternalTypes() {
        return new ArchCondition<>("expose no module-internal type in a public signature") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                for (JavaMethod m : c.getMethods()) {
                    if (!m.getModifiers().contains(JavaModifier.PUBLIC)) {
                        continue;
                    }
                    for (JavaClass t : m.getRawParameterTypes()) {
                        report(events, c, internal(t), m.getFullName() + " takes " + t.getName());
                    }
                    JavaClass r = m.getRawReturnType();
                    report(events, c, internal(r), m.getFullName() + " returns " + r.getName());
                    for (JavaType g : m.getParameterTypes()) {
                        for (JavaClass t : g.getAllInvolvedRawTypes()) {
                            report(events, c, internal(t), m.getFullName() + " mentions " + t.getName());
                        }
                    }
                    for (JavaClass t : m.getReturnType().getAllInvolvedRawTypes()) {
                        report(events, c, internal(t), m.getFullName() + " returns " + t.getName());
                    }
                }
                for (JavaField f : c.getFields()) {
                    if (f.getModifiers().contains(JavaModifier.PUBLIC)) {
                        for (JavaClass t : f.getType().getAllInvolvedRawTypes()) {
                            report(events, c, internal(t), f.getFullName() + " is of " + t.getName());
                        }
                    }
                }
            }
        };
    }

    private static void report(ConditionEvents events, JavaClass c, boolean violated, String what) {
        if (violated) {
            events.add(SimpleConditionEvent.violated(c, what + " (package not exported by lookout.engine)"));
        }
    }
}
