package lookout.engine.config;

/**
 * One entry of the {@code zones} section: a zone answered locally.
 *
 * @param origin     the zone's name, fully qualified, lower case
 * @param sourceName where its text came from (a file path, or the config file for inline text)
 * @param text       the RFC 1035 zone-file text
 * @param line       line in {@code sourceName} where the text starts (1 for a file)
 */
public record ZoneConfig(String origin, String sourceName, String text, int line) {
}
