package lookout.engine.health;

/**
 * What gdnsd monitors once, however many resources use it: an address (canonical text) or a
 * CNAME, with one service type. {@link #desc()} is gdnsd's name for it, which admin_state globs
 * match ({@code 192.0.2.1/web_check}).
 */
public record MonitorKey(String target, String serviceType, boolean cname) {

    public String desc() {
        return target + "/" + serviceType;
    }

    @Override
    public String toString() {
        return desc();
    }
}
