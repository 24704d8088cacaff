package io.capstan.flink.mysql.e2e.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy between the cluster and MySQL for network faults: plain sockets, every accepted
 * connection forwarded both ways by two threads. Modes: pass (forward), stall (hold every byte read
 * until {@link #pass()}: a network that goes silent and comes back, nothing lost), and {@link
 * #resetAll()} (every open connection closed with a TCP reset, as a middlebox that drops state).
 */
public final class TcpChaosProxy implements AutoCloseable {
    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private volatile boolean stalled;
    private volatile boolean closed;

    private TcpChaosProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** Listens on a free loopback port and forwards to {@code targetHost:targetPort}. */
    public static TcpChaosProxy start(String targetHost, int targetPort) {
        try {
            TcpChaosProxy proxy = new TcpChaosProxy(targetHost, targetPort);
            Thread acceptor = new Thread(proxy::acceptLoop, "chaos-proxy-accept");
            acceptor.setDaemon(true);
            acceptor.start();
            return proxy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String host() {
        return listener.getInetAddress().getHostAddress();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** The number of client connections open now. */
    public int openConnections() {
        return open.size() / 2;
    }

    /** Holds every byte in both directions (also of connections opened meanwhile). */
    public void stall() {
        stalled = true;
    }

    /** Forwards again, the held bytes first. */
    public void pass() {
        synchronized (gate) {
            stalled = false;
            gate.notifyAll();
        }
    }

    /** Closes every open connection with a reset (SO_LINGER 0); new ones are accepted. */
    public void resetAll() {
        for (Socket socket : open) {
            reset(socket);
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                try {
                    server.connect(new InetSocketAddress(targetHost, targetPort), 10_000);
                } catch (IOException e) {
                    reset(client); // the server is down: the client sees a refused-like reset
                    server.close();
                    continue;
                }
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                open.add(client);
                open.add(server);
                pump(client, server, "up");
                pump(server, client, "down");
            } catch (IOException e) {
                if (!closed) {
                    sleepQuietly(50); // e.g. too many open files; try again
                }
            }
        }
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread thread =
                new Thread(
                        () -> {
                            byte[] buffer = new byte[16 * 1024];
                            try {
                                InputStream in = from.getInputStream();
                                OutputStream out = to.getOutputStream();
                                int n;
                                while ((n = in.read(buffer)) >= 0) {
                                    awaitPass();
                                    out.write(buffer, 0, n);
                                    out.flush();
                                }
                            } catch (IOException | InterruptedException e) {
                                // reset, closed or interrupted: close both sides below
                            } finally {
                                closeBoth(from, to);
                            }
                        },
                        "chaos-proxy-" + direction + "-" + from.getPort());
        thread.setDaemon(true);
        thread.start();
    }

    private void awaitPass() throws InterruptedException {
        synchronized (gate) {
            while (stalled && !closed) {
                gate.wait(100);
            }
        }
    }

    /** An orderly end of one side is passed on as an end of the other (closing both). */
    private void closeBoth(Socket a, Socket b) {
        open.remove(a);
        open.remove(b);
        closeQuietly(a);
        closeQuietly(b);
    }

    private void reset(Socket socket) {
        open.remove(socket);
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing to do
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        pass();
        try {
            listener.close();
        } catch (IOException e) {
            // nothing to do
        }
        resetAll();
    }
}
