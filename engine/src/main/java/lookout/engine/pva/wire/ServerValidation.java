package lookout.engine.pva.wire;

import java.util.ArrayList;
import java.util.List;

/**
 * CMD_CONNECTION_VALIDATION sent by a server right after accepting a TCP connection: its buffer
 * sizes and the authentication methods it offers (in reverse order of priority, as PVXS sends them).
 */
public record ServerValidation(int receiveBufferSize, int introspectionRegistryMaxSize,
                               List<String> authMethods) implements PvaMessage {

    public ServerValidation {
        authMethods = List.copyOf(authMethods);
    }

    /** What PVXS sends: 64 KiB, 0x7fff, ["anonymous", "ca"]. */
    public static ServerValidation standard() {
        return new ServerValidation(0x10000, 0x7fff, List.of("anonymous", "ca"));
    }

    static ServerValidation decode(WireReader r) throws WireReader.Malformed {
        int rx = r.i32("receive buffer size");
        int reg = r.u16("introspection registry size");
        int n = r.size("auth method count", false);
        if (n > r.remaining()) {
            throw new WireReader.Malformed("auth method count " + n + " exceeds the message");
        }
        List<String> methods = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            methods.add(r.string("auth method"));
        }
        return new ServerValidation(rx, reg, methods);
    }

    @Override
    public void encode(WireWriter w) {
        int h = w.header(Pva.FLAG_SERVER, Pva.CMD_CONNECTION_VALIDATION);
        w.i32(receiveBufferSize);
        w.u16(introspectionRegistryMaxSize);
        w.size(authMethods.size());
        for (String m : authMethods) {
            w.string(m);
        }
        w.patchLength(h);
    }
}
