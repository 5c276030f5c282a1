package lookout.engine.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's rooms as rules (docs/design/engine.md): the layers and who may use whom, services
 * that meet only through seams, codecs on buffers, pure protocol state on no socket, no cycles,
 * and process-wide settings read in one place. A rule broken here fails the build with the
 * offending dependency named.
 */
class EngineLayersTest {

    private static JavaClasses engine;

    @BeforeAll
    static void importEngine() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("lookout.engine");
        // against a vacuous pass: the import found the rooms
        assertThat(engine.stream().map(JavaClass::getPackageName).distinct().count()).isGreaterThan(20);
    }

    /** The service rooms: each may use its own packages and the shared ones, never another service's. */
    private static final Map<String, List<String>> SERVICES = Map.of(
            "resolver", List.of("lookout.engine.dns.."),
            "pools", List.of("lookout.engine.weighted..", "lookout.engine.health.."),
            "pva-ports", List.of("lookout.engine.pva.udp.."),
            "pva-client", List.of("lookout.engine.pva.client.."),
            "pva-server", List.of("lookout.engine.pva.server.."),
            "status", List.of("lookout.engine.status.."));

    /** The wire codecs: below the services and their seams, above nothing but buffers. */
    private static final String[] CODECS = {"lookout.engine.dns.wire..", "lookout.engine.pva.wire.."};

    /** What PVA's client, server and port owner share: the wire codec, the server table, TCP framing. */
    private static final String[] PVA_SHARED = {"lookout.engine.pva.wire..", "lookout.engine.pva.beacon..",
            "lookout.engine.pva.tcp.."};

    @Test
    void layersAreUsedOnlyFromAbove() {
        DescribedPredicate<JavaClass> codecs = JavaClass.Predicates.resideInAnyPackage(CODECS);
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("boot").definedBy("lookout.engine.boot..")
                .layer("services").definedBy(JavaClass.Predicates.resideInAnyPackage("lookout.engine.dns..",
                        "lookout.engine.weighted..", "lookout.engine.health..", "lookout.engine.pva..", "lookout.engine.status..")
                        .and(DescribedPredicate.not(codecs)).as("the services"))
                .layer("seams").definedBy("lookout.engine.seams..")
                .layer("codecs").definedBy(codecs.as("the wire codecs"))
                .layer("core").definedBy("lookout.engine.core..")
                .layer("testing").definedBy("lookout.engine.testing..")
                .layer("api").definedBy("lookout.engine.api..")
                .layer("config").definedBy("lookout.engine.config..")
                .layer("net").definedBy("lookout.engine.net..")
                .whereLayer("boot").mayNotBeAccessedByAnyLayer()
                .whereLayer("services").mayOnlyBeAccessedByLayers("boot")
                .whereLayer("seams").mayOnlyBeAccessedByLayers("services", "boot")
                .whereLayer("codecs").mayOnlyBeAccessedByLayers("services", "seams", "boot")
                .whereLayer("core").mayOnlyBeAccessedByLayers("services", "boot")
                .whereLayer("testing").mayNotBeAccessedByAnyLayer()
                .whereLayer("api").mayOnlyBeAccessedByLayers("core", "services", "seams", "testing", "boot")
                .whereLayer("config").mayOnlyBeAccessedByLayers("api", "core", "services", "seams", "boot")
                .check(engine);
    }

    @Test
    void theSocketLayerDependsOnNettyAlone() {
        classes().that().resideInAPackage("lookout.engine.net..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax..", "io.netty..", "lookout.engine.net..")
                .because("it is the bottom room: DNS and PVA stand on it, it stands on nothing of theirs")
                .check(engine);
    }

    @Test
    void servicesMeetOnlyThroughSeams() {
        for (Map.Entry<String, List<String>> s : SERVICES.entrySet()) {
            String[] own = s.getValue().toArray(String[]::new);
            for (Map.Entry<String, List<String>> other : SERVICES.entrySet()) {
                if (other.getKey().equals(s.getKey())) {
                    continue;
                }
                noClasses().that().resideInAnyPackage(own)
                        .should().dependOnClassesThat().resideInAnyPackage(other.getValue().toArray(String[]::new))
                        .because("the " + s.getKey() + " service may reach the " + other.getKey()
                                + " service only through an interface of lookout.engine.seams")
                        .check(engine);
            }
        }
    }

    @Test
    void thePvaSharedPackagesBelongToNoService() {
        noClasses().that().resideInAnyPackage(PVA_SHARED)
                .should().dependOnClassesThat().resideInAnyPackage("lookout.engine.pva.client..", "lookout.engine.pva.server..",
                        "lookout.engine.pva.udp..", "lookout.engine.core..")
                .check(engine);
    }

    @Test
    void wireCodecsDependOnBuffersOnly() {
        classes().that().resideInAnyPackage("lookout.engine.dns.wire..", "lookout.engine.pva.wire..")
                .should().onlyDependOnClassesThat(DescribedPredicate.describe("the JDK but sockets, Netty's buffers, the codec itself",
                        (JavaClass c) -> (c.getPackageName().startsWith("java.") && !c.getPackageName().startsWith("java.nio.channels"))
                                || c.getPackageName().startsWith("io.netty.buffer")
                                || c.getPackageName().startsWith("io.netty.util")
                                || c.getPackageName().equals("lookout.engine.dns.wire")
                                || c.getPackageName().equals("lookout.engine.pva.wire")))
                .because("a codec only translates bytes to messages and back: fuzzable, usable by any transport")
                .check(engine);
    }

    /** Sockets and channels: Netty's, the JDK's, and the engine's socket layer (its address formatter aside). */
    private static final DescribedPredicate<JavaClass> SOCKETS = DescribedPredicate.describe("sockets or channels",
            (JavaClass c) -> c.getPackageName().startsWith("io.netty.channel")
                    || c.getPackageName().startsWith("java.nio.channels")
                    || c.getName().equals("java.net.DatagramSocket") || c.getName().equals("java.net.Socket")
                    || (c.getPackageName().equals("lookout.engine.net") && !c.getSimpleName().equals("HostPort")));

    @Test
    void pureProtocolStateTouchesNoSocket() {
        noClasses().that().haveFullyQualifiedName("lookout.engine.pva.client.SearchRing")
                .or().haveFullyQualifiedName("lookout.engine.pva.client.ChannelRegistry")
                .or().haveFullyQualifiedName("lookout.engine.pva.server.ForwardingRules")
                .or().haveFullyQualifiedName("lookout.engine.pva.server.BeaconSchedule")
                .or().haveFullyQualifiedName("lookout.engine.pva.server.TopNames")
                .or().resideInAnyPackage("lookout.engine.pva.beacon", "lookout.engine.dns.cache")
                .or().haveFullyQualifiedName("lookout.engine.dns.upstream.DemotionMarks")
                .or().haveFullyQualifiedName("lookout.engine.dns.Routing")
                .or().haveFullyQualifiedName("lookout.engine.weighted.WeightedSelector")
                .or().haveFullyQualifiedName("lookout.engine.weighted.OddsCalculator")
                .or().haveFullyQualifiedName("lookout.engine.health.AntiFlap")
                .or().haveFullyQualifiedName("lookout.engine.health.AdminState")
                .or().haveFullyQualifiedName("lookout.engine.api.FailureFold")
                .should().dependOnClassesThat(SOCKETS)
                .because("pure structures take now as an argument and are tested in virtual time, without sockets")
                .check(engine);
    }

    @Test
    void noCycleBetweenPackages() {
        slices().matching("lookout.engine.(**)").should().beFreeOfCycles().check(engine);
    }

    /** Each top-level class, with its nested ones, a slice of its own. */
    private static final SliceAssignment TOP_LEVEL_CLASSES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String name = c.getName();
            int nested = name.indexOf('$');
            return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
        }

        @Override
        public String getDescription() {
            return "top-level classes of lookout.engine";
        }
    };

    @Test
    void noCycleBetweenClasses() {
        slices().assignedFrom(TOP_LEVEL_CLASSES).should().beFreeOfCycles().check(engine);
    }

    @Test
    void processWideSettingsAreReadInTheOptionsAlone() {
        noClasses().that().doNotHaveFullyQualifiedName("lookout.engine.api.EngineOptions")
                .should().callMethod(System.class, "getProperty", String.class)
                .orShould().callMethod(System.class, "getProperty", String.class, String.class)
                .orShould().callMethod(System.class, "getProperties")
                .orShould().callMethod(System.class, "getenv")
                .orShould().callMethod(System.class, "getenv", String.class)
                .orShould().callMethod(Boolean.class, "getBoolean", String.class)
                .orShould().callMethod(Integer.class, "getInteger", String.class)
                .orShould().callMethod(Long.class, "getLong", String.class)
                .because("EngineOptions is the engine's one set of process-wide settings; the launcher maps its flags onto it")
                .check(engine);
    }
}
