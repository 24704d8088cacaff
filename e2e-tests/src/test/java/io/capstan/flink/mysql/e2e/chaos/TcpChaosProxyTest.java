package io.capstan.flink.mysql.e2e.chaos;

import io.capstan.flink.mysql.testing.FlinkLines;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

@Tag(FlinkLines.NEUTRAL)
class TcpChaosProxyTest {
    private ServerSocket echoServer;
    private TcpChaosProxy proxy;

    @BeforeEach
    void startEchoServerAndProxy() throws IOException {
        echoServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor =
                new Thread(
                        () -> {
                            while (!echoServer.isClosed()) {
                                try {
                                    Socket s = echoServer.accept();
                                    Thread echo = new Thread(() -> echo(s));
                                    echo.setDaemon(true);
                                    echo.start();
                                } catch (IOException e) {
                                    return;
                                }
                            }
                        });
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = TcpChaosProxy.start("127.0.0.1", echoServer.getLocalPort());
    }

    private static void echo(Socket s) {
        try (s) {
            s.getInputStream().transferTo(s.getOutputStream());
        } catch (IOException e) {
            // the proxy reset it
        }
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echoServer.close();
    }

    @Test
    void passesBytesBothWays() throws IOException {
        try (Socket client = new Socket(proxy.host(), proxy.port())) {
            client.getOutputStream().write("hello".getBytes());
            assertThat(readN(client.getInputStream(), 5)).isEqualTo("hello");
        }
    }

    @Test
    void aStallHoldsTheBytesAndPassDeliversThemAll() throws Exception {
        try (Socket client = new Socket(proxy.host(), proxy.port())) {
            client.getOutputStream().write("a".getBytes());
            assertThat(readN(client.getInputStream(), 1)).isEqualTo("a");
            proxy.stall();
            client.getOutputStream().write("bcd".getBytes());
            Thread.sleep(300);
            assertThat(client.getInputStream().available()).as("bytes through a stall").isZero();
            proxy.pass();
            assertThat(readN(client.getInputStream(), 3)).isEqualTo("bcd");
        }
    }

    @Test
    void resetAllBreaksOpenConnectionsAndNewOnesWork() throws IOException {
        Socket client = new Socket(proxy.host(), proxy.port());
        client.getOutputStream().write("x".getBytes());
        assertThat(readN(client.getInputStream(), 1)).isEqualTo("x");
        proxy.resetAll();
        Throwable broken =
                catchThrowable(
                        () -> {
                            int read = client.getInputStream().read();
                            if (read < 0) {
                                throw new SocketException("end of stream");
                            }
                        });
        assertThat(broken).isInstanceOf(SocketException.class);
        client.close();
        try (Socket again = new Socket(proxy.host(), proxy.port())) {
            again.getOutputStream().write("y".getBytes());
            assertThat(readN(again.getInputStream(), 1)).isEqualTo("y");
        }
    }

    private static String readN(InputStream in, int n) throws IOException {
        return new String(in.readNBytes(n));
    }
}
