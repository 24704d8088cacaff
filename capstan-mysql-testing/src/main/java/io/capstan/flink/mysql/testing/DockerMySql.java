package io.capstan.flink.mysql.testing;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;

/**
 * The Testcontainers path: {@code mysql:8.4} with the same server flags as the embedded server.
 * Kept in its own class so the embedded and external paths never load Testcontainers.
 */
final class DockerMySql {

    static final String IMAGE = "mysql:8.4";
    static final String ROOT_PASSWORD = "capstan-root";

    private DockerMySql() {}

    /**
     * Whether a Docker engine answers. Without any sign of Docker (no DOCKER_HOST, no socket, no
     * Testcontainers config) Testcontainers is not asked at all, which keeps the common case free
     * of its slow probing and noisy logs.
     */
    static boolean isAvailable() {
        if ("embedded".equalsIgnoreCase(System.getenv("CAPSTAN_TEST_MYSQL"))) {
            return false;
        }
        String home = System.getProperty("user.home", "");
        boolean hint =
                System.getenv("DOCKER_HOST") != null
                        || Files.exists(Paths.get("/var/run/docker.sock"))
                        || Files.exists(Paths.get(home, ".docker/run/docker.sock"))
                        || Files.exists(Paths.get(home, ".testcontainers.properties"));
        if (!hint) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Starts the container; the caller closes it (Testcontainers' Ryuk also removes it at exit).
     */
    static MySQLContainer<?> start() {
        List<String> flags =
                ServerOptions.merge(
                        List.of("--server-id=1"),
                        ServerOptions.REPLICATION_DEFAULTS,
                        ServerOptions.SPEED_DEFAULTS);
        MySQLContainer<?> c =
                new MySQLContainer<>(DockerImageName.parse(IMAGE))
                        .withUsername("root")
                        .withPassword(ROOT_PASSWORD)
                        .withCommand(flags.toArray(new String[0]));
        c.start();
        return c;
    }
}
