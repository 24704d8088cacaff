package io.capstan.flink.mysql.snapshot.read;

import io.capstan.flink.mysql.testing.BlackHoleForwarder;
import io.capstan.flink.mysql.testing.MySqlTestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process killed (SIGKILL) while its brief lock holds {@code LOCK TABLES … READ}, on a network
 * that tells the server nothing (a {@link BlackHoleForwarder} goes silent first, as for a host that
 * lost power): the server drops the silent locking session after its short wait_timeout, so the
 * table's writers resume within seconds, not after the default eight hours.
 */
class LockHolderVanishesIT {

    @RegisterExtension static final MySqlTestDatabase DB = new MySqlTestDatabase();

    /** The locking session's wait_timeout, plus room for a loaded machine. */
    private static final Duration WRITERS_RESUME_WITHIN =
            ChunkConnections.LOCK_HOLDER_WAIT_TIMEOUT.plusSeconds(10);

    @Test
    void writersResumeWithinSecondsAfterTheLockHoldingProcessVanishes() throws Exception {
        DB.execute(
                "CREATE TABLE vanish (id BIGINT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO vanish VALUES (1, 1), (2, 2)");
        try (BlackHoleForwarder network =
                new BlackHoleForwarder(DB.server().host(), DB.server().port())) {
            Process holder = startHolder(network);
            try {
                awaitLocked(holder);
                network.blackHole(); // the kill below never reaches the server
                holder.destroyForcibly(); // SIGKILL
                assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();

                long start = System.nanoTime();
                try (Connection writer = DB.openRootConnection();
                        Statement st = writer.createStatement()) {
                    st.execute("SET SESSION lock_wait_timeout = 120");
                    st.execute("UPDATE vanish SET v = v + 1 WHERE id = 1");
                }
                Duration waited = Duration.ofNanos(System.nanoTime() - start);
                System.out.println("The writer waited " + waited + " for the vanished lock");
                assertThat(waited).isLessThan(WRITERS_RESUME_WITHIN);
            } finally {
                holder.destroyForcibly();
            }
        }
    }

    private static Process startHolder(BlackHoleForwarder network) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb =
                new ProcessBuilder(
                        List.of(
                                java,
                                "-cp",
                                System.getProperty("java.class.path"),
                                LockHoldingMain.class.getName(),
                                network.host(),
                                Integer.toString(network.port()),
                                DB.server().connectorAccount().username(),
                                DB.name(),
                                "vanish"));
        pb.environment().put("CAPSTAN_TEST_PASSWORD", DB.server().connectorAccount().password());
        pb.redirectErrorStream(true);
        return pb.start();
    }

    private static void awaitLocked(Process holder) throws Exception {
        BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Boolean> locked =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                for (String line = out.readLine();
                                        line != null;
                                        line = out.readLine()) {
                                    if (line.equals("LOCKED")) {
                                        return true;
                                    }
                                    System.out.println("holder: " + line);
                                }
                                return false;
                            } catch (java.io.IOException e) {
                                return false;
                            }
                        });
        assertThat(locked.get(60, TimeUnit.SECONDS)).as("the holder locked the table").isTrue();
    }
}
