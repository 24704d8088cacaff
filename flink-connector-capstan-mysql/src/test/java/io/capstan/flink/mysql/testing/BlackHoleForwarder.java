package io.capstan.flink.mysql.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP forwarder to a server that can go silent like a dead network: after {@link #blackHole()}
 * every byte either way is dropped and no socket is closed, so neither end hears of it (no reset,
 * no FIN) and a client only notices by a timeout of its own. {@link #heal()} closes the black-holed
 * connections (as a network's eventual teardown would) and forwards new ones again. {@link
 * #cutAfter} resets a connection in the middle of what the server sends, as a network cut does.
 */
public final class BlackHoleForwarder implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean blackHoled;

    /** Bytes from the server still forwarded before the connections are reset; -1: no cut armed. */
    private final java.util.concurrent.atomic.AtomicLong cutBudget =
            new java.util.concurrent.atomic.AtomicLong(-1);

    public BlackHoleForwarder(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "black-hole-forwarder");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String host() {
        return listener.getInetAddress().getHostAddress();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** From now on nothing passes, either way, on old or new connections; nothing is closed. */
    public void blackHole() {
        blackHoled = true;
    }

    /**
     * Forwards {@code bytes} more bytes from the server, then resets every connection (TCP RST, as
     * a failing network or a restarted proxy does) and forwards new ones again.
     */
    public void cutAfter(long bytes) {
        cutBudget.set(bytes);
    }

    /** Closes every connection made so far and forwards new ones again. */
    public void heal() {
        blackHoled = false;
        closeAll();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                if (blackHoled) {
                    continue; // accepted, never answered: the handshake never comes
                }
                Socket server = new Socket(targetHost, targetPort);
                sockets.add(server);
                pump(client, server, false);
                pump(server, client, true);
            } catch (IOException e) {
                // the listener closed, or the server refused: the client sees its socket die
            }
        }
    }

    private void pump(Socket from, Socket to, boolean fromServer) {
        Thread t =
                new Thread(
                        () -> {
                            byte[] buffer = new byte[16 * 1024];
                            try {
                                InputStream in = from.getInputStream();
                                OutputStream out = to.getOutputStream();
                                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                                    if (blackHoled) {
                                        continue;
                                    }
                                    long budget = fromServer ? cutBudget.get() : -1;
                                    if (budget >= 0 && budget < n) {
                                        out.write(buffer, 0, (int) budget);
                                        out.flush();
                                        cutBudget.set(-1);
                                        resetAll();
                                        return;
                                    }
                                    if (budget >= 0) {
                                        cutBudget.addAndGet(-n);
                                    }
                                    out.write(buffer, 0, n);
                                    out.flush();
                                }
                            } catch (IOException ignored) {
                                // closed
                            }
                            if (!blackHoled) {
                                close(from);
                                close(to);
                            }
                        },
                        "black-hole-pump");
        t.setDaemon(true);
        t.start();
    }

    private void resetAll() {
        for (Socket s : sockets) {
            try {
                s.setSoLinger(true, 0); // close with RST, not FIN
            } catch (IOException ignored) {
                // already closed
            }
        }
        closeAll();
    }

    private void closeAll() {
        for (Socket s : sockets) {
            close(s);
        }
        sockets.clear();
    }

    private static void close(java.io.Closeable s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    @Override
    public void close() {
        close(listener);
        closeAll();
    }
}
