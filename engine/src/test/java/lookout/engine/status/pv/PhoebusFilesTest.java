package lookout.engine.status.pv;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * docs/phoebus: the display parses as XML, defines the prefix macro and names only PVs the engine
 * publishes (and every scalar and table of them); the alarm configuration names exactly the PVs
 * that have an alarm rule.
 */
class PhoebusFilesTest {

    static Path docs() {
        for (Path p : List.of(Path.of("..", "docs", "phoebus"), Path.of("docs", "phoebus"))) {
            if (Files.isDirectory(p)) {
                return p;
            }
        }
        throw new IllegalStateException("docs/phoebus not found from " + Path.of("").toAbsolutePath());
    }

    static Document parse(Path file) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(file.toFile());
    }

    static List<String> texts(Document d, String tag) {
        NodeList l = d.getElementsByTagName(tag);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < l.getLength(); i++) {
            out.add(l.item(i).getTextContent().trim());
        }
        return out;
    }

    static Set<String> suffixes() {
        return StatusPvCatalog.ALL.stream().map(StatusPvCatalog.Def::suffix).collect(Collectors.toSet());
    }

    @Test
    void theDisplayNamesOnlyPublishedPvsThroughThePrefixMacro() throws Exception {
        Document d = parse(docs().resolve("lookout.bob"));
        assertThat(d.getDocumentElement().getTagName()).isEqualTo("display");
        Element macros = (Element) d.getDocumentElement().getElementsByTagName("macros").item(0);
        assertThat(macros.getElementsByTagName("P").item(0).getTextContent()).isEqualTo("LOOKOUT:demo:");
        List<String> pvs = texts(d, "pv_name");
        assertThat(pvs).isNotEmpty().allSatisfy(pv -> {
            assertThat(pv).startsWith("pva://$(P)");
            assertThat(suffixes()).contains(pv.substring("pva://$(P)".length()));
        });
        // every PV is on it, once
        assertThat(pvs).doesNotHaveDuplicates().hasSize(StatusPvCatalog.ALL.size());
        // the tables in table widgets
        NodeList widgets = d.getElementsByTagName("widget");
        int tables = 0;
        for (int i = 0; i < widgets.getLength(); i++) {
            Element w = (Element) widgets.item(i);
            if (w.getAttribute("type").equals("table")) {
                tables++;
                String pv = w.getElementsByTagName("pv_name").item(0).getTextContent();
                String suffix = pv.substring("pva://$(P)".length());
                assertThat(StatusPvCatalog.ALL).filteredOn(def -> def.suffix().equals(suffix))
                        .singleElement().isInstanceOf(StatusPvCatalog.TableDef.class);
            }
        }
        assertThat(tables).isEqualTo(4);
    }

    @Test
    void theAlarmConfigurationNamesExactlyTheAlarmedPvs() throws Exception {
        Document d = parse(docs().resolve("lookout-alarms.xml"));
        assertThat(d.getDocumentElement().getTagName()).isEqualTo("config");
        NodeList pvs = d.getElementsByTagName("pv");
        Set<String> named = new java.util.HashSet<>();
        for (int i = 0; i < pvs.getLength(); i++) {
            Element pv = (Element) pvs.item(i);
            String name = pv.getAttribute("name");
            assertThat(name).startsWith("pva://LOOKOUT:demo:");
            named.add(name.substring("pva://LOOKOUT:demo:".length()));
            assertThat(pv.getElementsByTagName("enabled").item(0).getTextContent()).isEqualTo("true");
            assertThat(pv.getElementsByTagName("description").item(0).getTextContent()).isNotBlank();
        }
        Set<String> alarmed = StatusPvCatalog.ALL.stream().filter(def -> !def.rule().isEmpty())
                .map(StatusPvCatalog.Def::suffix).collect(Collectors.toSet());
        assertThat(named).isEqualTo(alarmed);
    }
}
