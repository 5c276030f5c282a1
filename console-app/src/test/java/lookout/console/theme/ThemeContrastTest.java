package lookout.console.theme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 item 10: WCAG AA for both themes — every text colour the CSS names and the surface it
 * is drawn on are at least 4.5 : 1 apart. Read from the stylesheets themselves (base.css with each
 * theme's palette): a rule that names a text colour and a background is one pair (the innermost
 * background, the last of a list); a text colour named without a background is checked against
 * every surface of the theme; the palette's own text/surface couples too. A colour that cannot be
 * read as a plain hex value where a pair needs it fails the test (derived colours hide contrast).
 */
class ThemeContrastTest {

    static final double AA = 4.5;
    /** Where text without a background of its own can be drawn. */
    static final List<String> SURFACES = List.of("-lookout-bg", "-lookout-panel", "-lookout-strip", "-lookout-field");
    static final List<String> TEXT_PROPERTIES = List.of("-fx-text-fill", "-fx-prompt-text-fill");

    record Rule(String selector, Map<String, String> declarations) {
    }

    record Pair(String where, String text, String background, double ratio) {
    }

    static String read(String name) throws IOException {
        try (InputStream in = Theme.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<Rule> parse(String css) {
        String text = css.replaceAll("(?s)/\\*.*?\\*/", "");
        List<Rule> rules = new ArrayList<>();
        Matcher m = Pattern.compile("([^{}]+)\\{([^}]*)}").matcher(text);
        while (m.find()) {
            Map<String, String> d = new LinkedHashMap<>();
            for (String decl : m.group(2).split(";")) {
                int colon = decl.indexOf(':');
                if (colon > 0) {
                    d.put(decl.substring(0, colon).strip(), decl.substring(colon + 1).strip());
                }
            }
            rules.add(new Rule(m.group(1).strip().replaceAll("\\s+", " "), d));
        }
        return rules;
    }

    /** The palette: every variable of a {@code .root} rule, the theme's over base.css's. */
    static Map<String, String> palette(List<Rule> rules) {
        Map<String, String> vars = new LinkedHashMap<>();
        for (Rule r : rules) {
            if (r.selector().equals(".root")) {
                vars.putAll(r.declarations());
            }
        }
        return vars;
    }

    /** {@code value} as #rrggbb, following variables; null when it is not a plain colour. */
    static String resolve(String value, Map<String, String> vars, int depth) {
        if (value == null || depth > 10) {
            return null;
        }
        String v = value.strip().toLowerCase(Locale.ROOT);
        if (v.matches("#[0-9a-f]{6}")) {
            return v;
        }
        if (v.matches("#[0-9a-f]{3}")) {
            return "#" + v.charAt(1) + v.charAt(1) + v.charAt(2) + v.charAt(2) + v.charAt(3) + v.charAt(3);
        }
        if (v.startsWith("-") && vars.containsKey(value.strip())) {
            return resolve(vars.get(value.strip()), vars, depth + 1);
        }
        return null;
    }

    static double luminance(String hex) {
        double[] c = new double[3];
        for (int i = 0; i < 3; i++) {
            double s = Integer.parseInt(hex.substring(1 + 2 * i, 3 + 2 * i), 16) / 255.0;
            c[i] = s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
        }
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    }

    static double contrast(String a, String b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    static List<Pair> pairs(String theme) throws IOException {
        List<Rule> rules = new ArrayList<>(parse(read("base.css")));
        rules.addAll(parse(read(theme)));
        Map<String, String> vars = palette(rules);
        List<Pair> out = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (Rule r : rules) {
            for (String prop : TEXT_PROPERTIES) {
                String textValue = r.declarations().get(prop);
                if (textValue == null) {
                    continue;
                }
                String text = resolve(textValue, vars, 0);
                if (text == null) {
                    unreadable.add(r.selector() + " " + prop + ": " + textValue);
                    continue;
                }
                String bgValue = r.declarations().get("-fx-background-color");
                if (bgValue != null && bgValue.strip().endsWith("transparent")) {
                    bgValue = null; // see-through: drawn on whatever surface is under it
                }
                if (bgValue != null && !r.selector().equals(".root")) {
                    String[] layers = bgValue.split(",");
                    String bg = resolve(layers[layers.length - 1], vars, 0);
                    if (bg == null) {
                        unreadable.add(r.selector() + " -fx-background-color: " + bgValue);
                        continue;
                    }
                    out.add(new Pair(r.selector(), text, bg, contrast(text, bg)));
                } else {
                    for (String s : SURFACES) {
                        String bg = resolve(s, vars, 0);
                        out.add(new Pair(r.selector() + " on " + s, text, bg, contrast(text, bg)));
                    }
                }
            }
        }
        // the palette's own couples: Modena draws with these where no rule above names the colours
        String[][] couples = {
            {"-fx-text-background-color", "-lookout-bg"}, {"-fx-text-background-color", "-lookout-panel"},
            {"-fx-text-inner-color", "-fx-control-inner-background"}, {"-fx-text-base-color", "-fx-base"},
            {"-fx-selection-bar-text", "-fx-selection-bar"}, {"-fx-selection-bar-text", "-fx-selection-bar-non-focused"},
            {"-lookout-advisory-text", "-lookout-advisory-bg"}, {"-lookout-alarm-text", "-lookout-alarm-bg"},
            {"-lookout-button-text", "-lookout-button-bg"}, {"-lookout-button-text", "-lookout-button-hover-bg"},
            {"-lookout-default-text", "-lookout-default-bg"}, {"-lookout-default-text", "-lookout-default-hover-bg"},
            {"-lookout-muted", "-lookout-field"}, {"-lookout-muted", "-lookout-strip"},
        };
        for (String[] c : couples) {
            String t = resolve(c[0], vars, 0);
            String b = resolve(c[1], vars, 0);
            if (t == null || b == null) {
                unreadable.add(c[0] + " / " + c[1]);
                continue;
            }
            out.add(new Pair("palette " + c[0] + " on " + c[1], t, b, contrast(t, b)));
        }
        assertThat(unreadable).as(theme + ": colours a pair needs must be plain hex values").isEmpty();
        return out;
    }

    @Test
    void everyTextAndButtonPairOfBothThemesIsAtLeastAa() throws IOException {
        for (Theme t : Theme.values()) {
            String file = t.stylesheets().get(1).replaceAll(".*/", "");
            List<Pair> pairs = pairs(file);
            assertThat(pairs).as(file + ": the check must see the default button and the badges")
                    .anyMatch(p -> p.where().startsWith(".button:default"))
                    .anyMatch(p -> p.where().contains("level-advisory"))
                    .anyMatch(p -> p.where().contains("level-alarm"))
                    .hasSizeGreaterThan(30);
            assertThat(pairs).as(file + ": pairs below " + AA + " : 1").filteredOn(p -> p.ratio() < AA).isEmpty();
        }
    }

    @Test
    void theMeasureIsWcags() {
        assertThat(contrast("#000000", "#ffffff")).isCloseTo(21.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(contrast("#777777", "#ffffff")).isCloseTo(4.48, org.assertj.core.data.Offset.offset(0.01));
        // what the dark theme's default button was: pale text on Modena's pale blue
        assertThat(contrast("#c9d1d9", "#abd8ed")).isLessThan(1.1);
    }
}
