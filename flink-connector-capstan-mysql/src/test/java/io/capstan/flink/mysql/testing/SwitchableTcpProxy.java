package io.capstan.flink.mysql.testing;

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
 * A loopback TCP forwarder whose target port can be switched, as a virtual IP or a proxy in front
 * of a MySQL topology is switched at failover: {@link #switchTo} closes every open connection, and
 * new connections go to the new target. A connection to a target that is down is closed at once.
 */
public final class SwitchableTcpProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile int targetPort;
    private volatile boolean closed;

    public SwitchableTcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "tcp-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** New connections go to {@code port}; the open ones are closed. */
    public synchronized void switchTo(int port) {
        targetPort = port;
        closeOpenConnections();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            Socket server = connectToTarget(client);
            if (server != null) {
                pump(client, server);
                pump(server, client);
            }
        }
    }

    /** Under the switch's lock, so no connection to the old target survives a switch. */
    private synchronized Socket connectToTarget(Socket client) {
        Socket server = new Socket();
        try {
            server.connect(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2_000);
        } catch (IOException e) {
            closeQuietly(client); // the target is down: the client sees a closed connection
            closeQuietly(server);
            return null;
        }
        open.add(client);
        open.add(server);
        return server;
    }

    private void pump(Socket from, Socket to) {
        Thread t =
                new Thread(
                        () -> {
                            byte[] buffer = new byte[16 * 1024];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                int n;
                                while ((n = in.read(buffer)) >= 0) {
                                    out.write(buffer, 0, n);
                                    out.flush();
                                }
                            } catch (IOException e) {
                                // one side closed: close both below
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                                open.remove(from);
                                open.remove(to);
                            }
                        },
                        "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void closeOpenConnections() {
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        closeOpenConnections();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}
