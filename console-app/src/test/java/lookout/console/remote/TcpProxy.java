package lookout.console.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP relay in front of a real engine's listener, for what the engine itself does not
 * do on demand: break every open connection at once (a network failure mid-stream: {@link #cut}),
 * or be gone altogether ({@link #close}) and come back on the same port. Bytes pass unchanged both
 * ways; the engine sees the relay as its client. The target can be changed for later connections
 * (an engine restarted elsewhere, {@link #target}).
 */
public final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile int target;
    private volatile boolean closed;

    /** A relay on {@code 127.0.0.1:port} (0: any free port) to {@code 127.0.0.1:target}. */
    public TcpProxy(int port, int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
        acceptor = new Thread(this::accept, "tcp-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    /** Later connections go to {@code 127.0.0.1:port}. */
    public void target(int port) {
        target = port;
    }

    /** Connections relayed now (client side). */
    public int connections() {
        return open.size() / 2;
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (closed) {
                // taken from the backlog as the relay closed: gone, like the relay
                quietly(client);
                return;
            }
            Socket upstream;
            try {
                upstream = new Socket(InetAddress.getLoopbackAddress(), target);
            } catch (IOException e) {
                quietly(client);
                continue; // the engine is not there: the client sees the connection end
            }
            open.add(client);
            open.add(upstream);
            pump(client, upstream);
            pump(upstream, client);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 << 10];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // cut, or one side went away
            } finally {
                open.remove(from);
                open.remove(to);
                quietly(from);
                quietly(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    /** Breaks every open connection (both sides see it end); the relay keeps listening. */
    public void cut() {
        for (Socket s : open) {
            quietly(s);
        }
        open.clear();
    }

    /** Stops listening and breaks every connection: nothing answers on the port until a new relay binds it. */
    @Override
    public void close() {
        closed = true;
        quietly(server);
        // the JDK closes a listening socket only once the thread in accept() has left its poll:
        // until then the kernel still takes connections (FakeUpstream.closeTcp, the same cause)
        try {
            acceptor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        cut();
    }

    private static void quietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already closed
        }
    }
}
