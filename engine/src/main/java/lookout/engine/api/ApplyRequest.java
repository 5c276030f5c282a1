package lookout.engine.api;

/**
 * How a configuration text is to be applied ({@link Engine#applyText}, {@link Engine#reloadFile}).
 *
 * @param dryRun          validate and diff only: nothing is applied, saved or changed
 * @param force           write the file even though it was edited on disk since the engine loaded it
 * @param confirmEmpty    apply a text that would remove every service (an empty or truncated file)
 * @param expectedVersion refuse unless this is the running version (null: any); guards against two
 *                        operators applying on top of each other
 */
public record ApplyRequest(boolean dryRun, boolean force, boolean confirmEmpty, Long expectedVersion) {

    /** A plain apply: not a dry run, nothing forced or confirmed, any running version. */
    public static ApplyRequest plain() {
        return new ApplyRequest(false, false, false, null);
    }

    public ApplyRequest asDryRun() {
        return new ApplyRequest(true, force, confirmEmpty, expectedVersion);
    }

    public ApplyRequest forced() {
        return new ApplyRequest(dryRun, true, confirmEmpty, expectedVersion);
    }

    public ApplyRequest confirmingEmpty() {
        return new ApplyRequest(dryRun, force, true, expectedVersion);
    }

    public ApplyRequest expecting(long version) {
        return new ApplyRequest(dryRun, force, confirmEmpty, version);
    }
}
