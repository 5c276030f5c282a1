package lookout.engine.dns;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The DNS rooms' own rules, written as tests so that nobody breaks them silently: the wire codec
 * on buffers only; the pure protocol state on no socket or channel; the listeners reaching the
 * resolver only through {@code Intake.Questions}. (No cycles between classes or packages: the
 * engine-wide {@code lookout.engine.arch.EngineLayersTest}.)
 */
class DnsArchitectureTest {

    private static JavaClasses dns;

    @BeforeAll
    static void importDns() {
        dns = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("lookout.engine.dns");
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
