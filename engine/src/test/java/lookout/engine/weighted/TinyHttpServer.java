package lookout.engine.weighted;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback HTTP/1.0 server answering every request with a settable status code. */
final class TinyHttpServer implements AutoCloseable {

    final AtomicInteger status = new AtomicInteger(200);
    final List<String> requestLines = new CopyOnWriteArrayList<>();
    final List<String> headerLines = new CopyOnWriteArrayList<>();
    private final ServerSocket socket;
    private final Thread thread;
    private volatile boolean closed;

    TinyHttpServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        socket.setSoTimeout(200);
        thread = new Thread(this::serve, "tiny-http");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    private void serve() {
        while (!closed) {
            try (Socket s = socket.accept()) {
                s.setSoTimeout(2000);
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
                String first = in.readLine();
                String line = first;
                int guard = 0;
                while (line != null && !line.isEmpty() && guard++ < 100) {
                    line = in.readLine();
                    if (line != null && !line.isEmpty()) {
                        headerLines.add(line);
                    }
                }
                requestLines.add(first);
                OutputStream out = s.getOutputStream();
                out.write(("HTTP/1.0 " + status.get() + " Whatever\r\nContent-Length: 2\r\n\r\nok").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (SocketTimeoutException e) {
                // poll the closed flag
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        socket.close();
    }
}
