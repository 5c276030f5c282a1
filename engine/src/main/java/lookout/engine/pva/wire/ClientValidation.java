package lookout.engine.pva.wire;

/**
 * CMD_CONNECTION_VALIDATION sent by a client in answer to {@link ServerValidation}: its buffer
 * sizes, QoS and the chosen authentication method. Lookout always chooses "anonymous" and sends
 * the null type code 0xFF as its credentials; on receipt, credentials after the method are skipped.
 */
public record ClientValidation(int receiveBufferSize, int introspectionRegistryMaxSize, int qos,
                               String authMethod) implements PvaMessage {

    /** What PVXS sends for anonymous authentication. */
    public static ClientValidation anonymous() {
        return new ClientValidation(0x10000, 0x7fff, 0, "anonymous");
    }

    static ClientValidation decode(WireReader r) throws WireReader.Malformed {
        int rx = r.i32("receive buffer size");
        int reg = r.u16("introspection registry size");
        int qos = r.u16("QoS");
        String method = r.string("auth method");
        return new ClientValidation(rx, reg, qos, method);
    }

    @Override
    public void encode(WireWriter w) {
        int h = w.header(0, Pva.CMD_CONNECTION_VALIDATION);
        w.i32(receiveBufferSize);
        w.u16(introspectionRegistryMaxSize);
        w.u16(qos);
        w.string(authMethod);
        w.u8(0xFF);
        w.patchLength(h);
    }
}
