package lookout.engine.config;

/**
 * A whole-configuration check that runs after every section is bound (zone files parse, DYNA/DYNC
 * resources exist, ...). A service provider: {@link ConfigChecks} finds every implementation.
 */
public interface ConfigCheck {

    void check(Config candidate, ConfigProblems problems);
}
