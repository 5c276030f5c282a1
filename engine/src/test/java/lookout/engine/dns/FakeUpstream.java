package lookout.engine.dns;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;
import lookout.engine.dns.wire.Encoded;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.Names;
import lookout.engine.dns.wire.Rr;
import lookout.engine.dns.wire.RrType;

/**
 * A scriptable upstream DNS server on 127.0.0.1, UDP and TCP on the same ephemeral port. Each
 * query is recorded; the behaviour decides the reply (bytes, or null for silence; on TCP,
 * {@link #CLOSE} closes the connection without a reply, {@link #HALF} sends half a reply and closes).
 */
final class FakeUpstream implements AutoCloseable {

    enum Transport { UDP, TCP }

    record Received(Transport transport, String qname, int qtype, int id) {
    }

    static final byte[] CLOSE = new byte[0];
    static final byte[] HALF = new byte[1];

    final InetSocketAddress address;
    final List<Received> received = new CopyOnWriteArrayList<>();
    private final DatagramSocket udp;
    private final ServerSocket tcp;
    private final List<Thread> threads = new ArrayList<>();
    private volatile BiFunction<Message, Transport, byte[]> behaviour;
    private volatile boolean closed;
    private final Thread acceptThread;

    FakeUpstream(BiFunction<Message, Transport, byte[]> behaviour) throws IOException {
        this.behaviour = behaviour;
        DatagramSocket u = null;
        ServerSocket t = null;
        for (int i = 0; i < 20 && t == null; i++) {
            u = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try {
                t = new ServerSocket();
                t.setReuseAddress(true);
                // SO_REUSEPORT lets closeTcp() bind its port holder before the listener goes
                t.setOption(java.net.StandardSocketOptions.SO_REUSEPORT, true);
                t.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), u.getLocalPort()));
            } catch (IOException e) {
                t = null;
                u.close();
            }
        }
        if (t == null) {
            throw new IOException("no free port pair");
        }
        udp = u;
        tcp = t;
        udp.setSoTimeout(100);
        tcp.setSoTimeout(100);
        address = new InetSocketAddress(InetAddress.getLoopbackAddress(), udp.getLocalPort());
        start(this::udpLoop, "fake-upstream-udp");
        acceptThread = start(this::tcpLoop, "fake-upstream-tcp");
    }

    /** Stops accepting TCP: connections to the port are refused. */
    void closeTcp() throws IOException {
        // Keep the port bound but not listening: a connect to it is refused (RST), and the
        // kernel cannot hand it out as the ephemeral source port of the resolver's own connect —
        // which would turn "refused" into a TCP self-connection that succeeds. The holder is
        // bound (SO_REUSEPORT, like the listener) before the listener closes: no window in which
        // anything else can take the port.
        Socket holder = new Socket();
        holder.setReuseAddress(true);
        holder.setOption(java.net.StandardSocketOptions.SO_REUSEPORT, true);
        holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), tcp.getLocalPort()));
        portHolder = holder;
        tcp.close();
        // The JDK's close() only swaps the descriptor while the accept thread sits in poll(); the
        // kernel's listener lives until that poll returns, and a connect in that window is taken
        // into the backlog and then reset: "closed", not "refused". Wait for the thread to leave.
        try {
            acceptThread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (acceptThread.isAlive()) {
            throw new IOException("the TCP accept thread did not stop");
        }
    }

    private volatile Socket portHolder;

    void behave(BiFunction<Message, Transport, byte[]> b) {
        behaviour = b;
    }

    int count() {
        return received.size();
    }

    int count(Transport t) {
        return (int) received.stream().filter(r -> r.transport() == t).count();
    }

    private Thread start(Runnable r, String name) {
        Thread th = new Thread(r, name);
        th.setDaemon(true);
        th.start();
        threads.add(th);
        return th;
    }

    private void udpLoop() {
        byte[] buf = new byte[65535];
        while (!closed) {
            DatagramPacket p = new DatagramPacket(buf, buf.length);
            try {
                udp.receive(p);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                return;
            }
            byte[] q = java.util.Arrays.copyOf(p.getData(), p.getLength());
            byte[] r = handle(q, Transport.UDP);
            if (r != null && r.length > 1) {
                try {
                    udp.send(new DatagramPacket(r, r.length, p.getSocketAddress()));
                } catch (IOException e) {
                    // the transaction's socket may be gone already
                }
            }
        }
    }

    private void tcpLoop() {
        while (!closed) {
            Socket s;
            try {
                s = tcp.accept();
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException e) {
                return;
            }
            start(() -> tcpConnection(s), "fake-upstream-tcp-conn");
        }
    }

    private void tcpConnection(Socket s) {
        try (s) {
            s.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            int len = in.readUnsignedShort();
            byte[] q = in.readNBytes(len);
            byte[] r = handle(q, Transport.TCP);
            if (r == null) {
                // silent: hold the connection until the client gives up or we close
                while (!closed && in.read() >= 0) {
                    Thread.onSpinWait();
                }
                return;
            }
            if (r == CLOSE) {
                return;
            }
            if (r == HALF) {
                out.writeShort(100);
                out.write(new byte[10]);
                out.flush();
                return;
            }
            out.writeShort(r.length);
            out.write(r);
            out.flush();
            in.read(); // wait for the client to close
        } catch (IOException e) {
            // the client went away
        }
    }

    private byte[] handle(byte[] q, Transport t) {
        Message m;
        try {
            m = Message.decodeHeaderAndQuestion(q, q.length);
            Message.decodeRecords(q, q.length, m);
        } catch (Exception e) {
            return null;
        }
        received.add(new Received(t, m.qname, m.qtype, m.id));
        return behaviour.apply(m, t);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        udp.close();
        tcp.close();
        Socket holder = portHolder;
        if (holder != null) {
            holder.close();
        }
    }

    // ------------------------------------------------------------------ replies

    static byte[] reply(Message q, int rcode, boolean tc, List<Rr> answer) {
        return reply(q, rcode, tc, answer, List.of());
    }

    static byte[] reply(Message q, int rcode, boolean tc, List<Rr> answer, List<Rr> authority) {
        int flags = Message.QR | Message.RD | Message.RA | (tc ? Message.TC : 0);
        Encoded e = Encoded.encode(flags, rcode, q.qname, q.qtype, q.qclass, answer, authority, List.of());
        byte[] w = e.wire().clone();
        w[0] = (byte) (q.id >>> 8);
        w[1] = (byte) q.id;
        return w;
    }

    /** NOERROR with one A record 192.0.2.{last}. */
    static byte[] a(Message q, int last) {
        return reply(q, RrType.NOERROR, false, List.of(new Rr(q.qname, RrType.A, RrType.IN, 300,
                new byte[]{(byte) 192, 0, 2, (byte) last})));
    }

    static byte[] nxdomain(Message q) {
        return reply(q, RrType.NXDOMAIN, false, List.of(), List.of(soa(q.qname)));
    }

    static Rr soa(String name) {
        String zone = Names.parent(name) == null ? "." : Names.parent(name);
        byte[] m = Names.toWire("ns." + (zone.equals(".") ? "" : zone));
        byte[] r = Names.toWire("host." + (zone.equals(".") ? "" : zone));
        byte[] d = new byte[m.length + r.length + 20];
        System.arraycopy(m, 0, d, 0, m.length);
        System.arraycopy(r, 0, d, m.length, r.length);
        d[d.length - 1] = 60; // MINIMUM 60
        return new Rr(zone, RrType.SOA, RrType.IN, 300, d);
    }

    /** An extended rcode (RFC 6891): the upper 8 bits in the OPT record. */
    static byte[] extendedRcode(Message q, int rcode) {
        byte[] base = reply(q, rcode & 0xF, false, List.of());
        byte[] w = java.util.Arrays.copyOf(base, base.length + 11);
        int p = base.length;
        w[p + 2] = RrType.OPT;
        w[p + 3] = 0x04; // 1232 = 0x04D0
        w[p + 4] = (byte) 0xD0;
        w[p + 5] = (byte) (rcode >>> 4);
        w[11] = 1; // ARCOUNT
        return w;
    }

    /** seed 004: a valid header and question, a corrupt additional section. */
    static byte[] corruptAdditional(Message q) {
        byte[] base = a(q, 1);
        byte[] w = java.util.Arrays.copyOf(base, base.length + 14);
        int p = base.length;
        w[p] = 0;                 // owner: root
        w[p + 1] = 0;
        w[p + 2] = RrType.OPT;    // type OPT
        w[p + 3] = 0x04;
        w[p + 4] = (byte) 0xD0;   // class = payload 1232
        w[p + 9] = 0;
        w[p + 10] = 40;           // RDLENGTH 40, but only 3 bytes follow
        w[11] = 1;                // ARCOUNT
        return w;
    }
}
