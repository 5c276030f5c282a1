package lookout.engine.pva.wire;

/** A message with the header it arrived under (byte order, server flag, protocol version). */
public record Frame(PvaHeader header, PvaMessage message) {
}
