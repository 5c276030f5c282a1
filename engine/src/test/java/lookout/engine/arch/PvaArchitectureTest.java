package lookout.engine.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rooms of PVA: the client and the server meet only through the seams (never each other's
 * package, nor the port owner's), the codecs depend on buffers only, the pure protocol state on no
 * socket, and no two classes of PVA depend on each other round a cycle (a nested class counts as
 * part of the class it is declared in).
 */
class PvaArchitectureTest {

    private static JavaClasses engine;

    @BeforeAll
    static void importEngine() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("lookout.engine");
    }

    @Test
    void theServerKnowsNothingOfTheClientNorOfThePortOwner() {
        noClasses().that().resideInAPackage("lookout.engine.pva.server..")
                .should().dependOnClassesThat().resideInAnyPackage("lookout.engine.pva.client..", "lookout.engine.pva.udp..")
                .because("services meet through lookout.engine.seams only")
                .check(engine);
    }

    @Test
    void theClientKnowsNothingOfTheServerNorOfThePortOwner() {
        noClasses().that().resideInAPackage("lookout.engine.pva.client..")
                .should().dependOnClassesThat().resideInAnyPackage("lookout.engine.pva.server..", "lookout.engine.pva.udp..")
                .because("services meet through lookout.engine.seams only")
                .check(engine);
    }

    @Test
    void thePortOwnerKnowsNeitherService() {
        noClasses().that().resideInAPackage("lookout.engine.pva.udp..")
                .should().dependOnClassesThat().resideInAnyPackage("lookout.engine.pva.server..", "lookout.engine.pva.client..")
                .check(engine);
    }

    @Test
    void wireCodecsDependOnBuffersOnly() {
        classes().that().resideInAPackage("lookout.engine.pva.wire..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.netty.buffer..",
                        "io.netty.util..", "lookout.engine.pva.wire..")
                .check(engine);
    }

    @Test
    void pureProtocolStateHasNoSocket() {
        noClasses().that().haveSimpleName("SearchRing").or().haveSimpleName("ServerTable")
                .or().haveSimpleName("ForwardingRules").or().haveSimpleName("BeaconSchedule")
                .or().haveSimpleName("ChannelRegistry").or().haveSimpleName("OnDemandNames")
                .should().dependOnClassesThat().resideInAnyPackage("io.netty.channel..", "lookout.engine.net..",
                        "java.nio.channels..")
                .check(engine);
    }

    @Test
    void noClassesOfPvaDependOnEachOtherRoundACycle() {
        Map<String, Set<String>> edges = new TreeMap<>();
        for (JavaClass c : engine) {
            String from = topLevel(c);
            if (!inScope(from)) {
                continue;
            }
            Set<String> to = edges.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String target = topLevel(d.getTargetClass());
                if (inScope(target) && !target.equals(from)) {
                    to.add(target);
                }
            }
        }
        assertThat(cycles(edges)).as("cycles between classes").isEmpty();
    }

    private static boolean inScope(String className) {
        return className.startsWith("lookout.engine.pva.") || className.startsWith("lookout.engine.seams.");
    }

    private static String topLevel(JavaClass c) {
        String name = c.getBaseComponentType().getName();
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    /** Tarjan: the strongly connected components of more than one class. */
    private static List<List<String>> cycles(Map<String, Set<String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new java.util.HashSet<>();
        List<List<String>> out = new ArrayList<>();
        int[] counter = {0};
        for (String v : edges.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, edges, index, low, stack, onStack, out, counter);
            }
        }
        return out;
    }

    private static void strongConnect(String v, Map<String, Set<String>> edges, Map<String, Integer> index,
                                      Map<String, Integer> low, Deque<String> stack, Set<String> onStack,
                                      List<List<String>> out, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]);
        counter[0]++;
        stack.push(v);
        onStack.add(v);
        for (String w : edges.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strongConnect(w, edges, index, low, stack, onStack, out, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            List<String> component = new ArrayList<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                out.add(component);
            }
        }
    }
}
