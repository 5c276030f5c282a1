package lookout.engine.pva.wire;

import java.util.List;

/**
 * The messages of one UDP datagram, in order; or, when any part of it is malformed, none of them
 * and the reason the whole datagram is dropped.
 *
 * @param frames     the messages (empty when dropped)
 * @param dropReason null when the datagram was well formed
 */
public record DatagramContents(List<Frame> frames, String dropReason) {

    public DatagramContents {
        frames = List.copyOf(frames);
    }

    public boolean dropped() {
        return dropReason != null;
    }

    static DatagramContents drop(String reason) {
        return new DatagramContents(List.of(), reason);
    }
}
