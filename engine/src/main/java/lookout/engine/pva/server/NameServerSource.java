package lookout.engine.pva.server;

import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import lookout.engine.seams.ResolvedNames;
import lookout.engine.seams.ResolvedNames.Resolution;

/**
 * Claims the names the engine's PVA client has resolved to a live server, naming that server's
 * GUID and endpoint (seed 002 §6: a name server's reply need not name itself), and asks the client
 * to resolve every name it is asked about that it cannot vouch for yet.
 *
 * <p>It keeps no claim of its own: {@link ResolvedNames#lookup} is consulted on every search, so
 * a withdrawal (server lost or restarted) takes effect at once and nothing stale is ever claimed
 * (§4: never claim what cannot be vouched for). Withdrawals only drop the parsed-GUID cache entry.
 * Confined to the engine loop.
 */
public final class NameServerSource implements Source, ResolvedNames.Listener {

    private final ResolvedNames resolved;
    /** Parsed GUID bytes by hex string, so a claim allocates nothing on the hot path. */
    private final Map<String, byte[]> guids = new HashMap<>();
    /** The last GUID parsed or found: a subnet usually has few servers, so most claims hit it by identity. */
    private String lastHex;
    private byte[] lastGuid;
    private long claims;
    private long wants;

    public NameServerSource(ResolvedNames resolved) {
        this.resolved = resolved;
    }

    @Override
    public String name() {
        return "name-server";
    }

    @Override
    public void onSearch(SearchOperation op) {
        for (int i = 0, n = op.size(); i < n; i++) {
            if (op.isClaimed(i)) {
                continue;
            }
            String name = op.name(i);
            Resolution r = resolved.lookup(name);
            if (r != null && r.endpoint() != null && !r.endpoint().isUnresolved()) {
                byte[] guid = guidBytes(r.guid());
                if (guid != null) {
                    op.claimFor(i, guid, r.endpoint());
                    claims++;
                    continue;
                }
            }
            // §4 contract: react to the search by resolving, claim only once it can be proxied.
            resolved.want(name);
            wants++;
        }
    }

    private byte[] guidBytes(String hex) {
        if (hex == lastHex) {
            return lastGuid;
        }
        byte[] g = guids.get(hex);
        if (g == null) {
            try {
                g = HexFormat.of().parseHex(hex);
            } catch (IllegalArgumentException e) {
                return null;
            }
            if (g.length != 12) {
                return null;
            }
            if (guids.size() > 20_000) {
                guids.clear(); // bounded like the beacon table (seed 002 §9)
            }
            guids.put(hex, g);
        }
        lastHex = hex;
        lastGuid = g;
        return g;
    }

    @Override
    public void resolved(Resolution resolution) {
        // Nothing to cache: lookup() is authoritative.
    }

    @Override
    public void withdrawn(Resolution resolution) {
        guids.remove(resolution.guid());
        lastHex = null;
        lastGuid = null;
    }

    long claims() {
        return claims;
    }

    long wants() {
        return wants;
    }
}
