package lookout.engine.dns;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The DNS rooms' rules, written as tests so that nobody breaks them silently: no cycle between
 * classes (nested classes count with their outer one) nor between packages; the wire codec on
 * buffers only; the pure protocol state on no socket or channel; the listeners reaching the
 * resolver only through {@code Intake.Questions}.
 */
class DnsArchitectureTest {

    private static JavaClasses dns;

    @BeforeAll
    static void importDns() {
        dns = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("lookout.engine.dns");
    }

    /** Each top-level class (with its nested ones) a slice of its own. */
    private static final SliceAssignment CLASSES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            String name = c.getName();
            int nested = name.indexOf('$');
            return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
        }

        @Override
        public String getDescription() {
            return "top-level classes of lookout.engine.dns";
        }
    };

    @Test
    void noCycleBetweenClasses() {
        slices().assignedFrom(CLASSES).should().beFreeOfCycles().check(dns);
    }

    @Test
    void noCycleBetweenPackages() {
        slices().matching("lookout.engine.(dns..)").should().beFreeOfCycles().check(dns);
    }

    @Test
    void theWireCodecDependsOnBuffersOnly() {
        classes().that().resideInAPackage("lookout.engine.dns.wire")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.netty.buffer..", "lookout.engine.dns.wire")
                .check(dns);
    }

    /** Sockets and channels: Netty's and the JDK's, and the net room's but for its address formatter. */
    private static final DescribedPredicate<JavaClass> SOCKETS = JavaClass.Predicates
            .resideInAnyPackage("io.netty.channel..", "java.nio.channels..")
            .or(JavaClass.Predicates.resideInAPackage("lookout.engine.net")
                    .and(DescribedPredicate.not(JavaClass.Predicates.simpleName("HostPort"))))
            .as("sockets or channels");

    @Test
    void pureProtocolStateTouchesNoSocketOrChannel() {
        noClasses().that().haveFullyQualifiedName("lookout.engine.dns.upstream.DemotionMarks")
                .or().haveFullyQualifiedName("lookout.engine.dns.upstream.ServerChoice")
                .or().haveFullyQualifiedName("lookout.engine.dns.Routing")
                .or().haveFullyQualifiedName("lookout.engine.dns.Resolver")
                .or().haveFullyQualifiedName("lookout.engine.dns.ResolverAccounting")
                .or().resideInAnyPackage("lookout.engine.dns.cache", "lookout.engine.dns.answer", "lookout.engine.dns.zone")
                .should().dependOnClassesThat(SOCKETS)
                .check(dns);
    }

    @Test
    void theListenersKnowNeitherTheResolverNorTheService() {
        noClasses().that().resideInAPackage("lookout.engine.dns.listen")
                .should().dependOnClassesThat().resideInAPackage("lookout.engine.dns")
                .check(dns);
    }
}
