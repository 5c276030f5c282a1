package lookout.console.remote;

import java.util.function.Consumer;

/**
 * Server-sent events (the WHATWG "event stream" format), line by line: {@code id:}, {@code event:}
 * and {@code data:} fields (several data lines joined by a line feed), comments after {@code :},
 * one message per blank line. Pure: lines in, messages out.
 *
 * <p>Concurrency: one caller at a time (the stream's subscriber).
 */
public final class SseParser {

    /**
     * One message.
     *
     * @param id    the {@code id:} field, or null when the message has none
     * @param event the {@code event:} field, {@code message} by default
     * @param data  the data lines joined by line feeds
     */
    public record Message(String id, String event, String data) {
    }

    /** A data field larger than this ends the stream: no event is this large. */
    static final int MAX_DATA = 4 << 20;

    private final Consumer<Message> sink;
    private final Runnable onComment;
    private String id;
    private String event;
    private StringBuilder data;

    /** @param onComment called for each comment line (the engine's {@code : keepalive}) */
    public SseParser(Consumer<Message> sink, Runnable onComment) {
        this.sink = sink;
        this.onComment = onComment;
    }

    /** One line, without its line ending. */
    public void line(String line) {
        if (line.isEmpty()) {
            dispatch();
            return;
        }
        if (line.charAt(0) == ':') {
            onComment.run();
            return;
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        switch (field) {
            case "id" -> {
                if (value.indexOf('\0') < 0) {
                    id = value;
                }
            }
            case "event" -> event = value;
            case "data" -> {
                if (data == null) {
                    data = new StringBuilder(value.length());
                } else {
                    data.append('\n');
                }
                if (data.length() + value.length() > MAX_DATA) {
                    throw new IllegalStateException("an event larger than " + (MAX_DATA >> 20) + " MiB");
                }
                data.append(value);
            }
            default -> {
                // retry and unknown fields: ignored (the reconnect delay is the console's own)
            }
        }
    }

    private void dispatch() {
        if (data == null && event == null && id == null) {
            return;
        }
        Message m = new Message(id, event == null || event.isEmpty() ? "message" : event,
                data == null ? "" : data.toString());
        id = null;
        event = null;
        data = null;
        sink.accept(m);
    }
}
