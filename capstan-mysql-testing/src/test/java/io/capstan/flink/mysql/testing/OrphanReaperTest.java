package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

@Tag(FlinkLines.NEUTRAL)
class OrphanReaperTest {

    @Test
    void deletesTheDirectoriesOfAGoneJvmAndKeepsTheLiveOnes(@TempDir Path tmp) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("mysql-servers"));
        Path live = Files.createDirectories(root.resolve("s-live"));
        Path liveSocket = Files.createDirectories(tmp.resolve("capstan-live"));
        OrphanReaper.markOwner(live, ProcessHandle.current().pid(), liveSocket);
        Path orphan = Files.createDirectories(root.resolve("s-orphan"));
        Path orphanSocket = Files.createDirectories(tmp.resolve("capstan-orphan"));
        OrphanReaper.markOwner(orphan, finishedProcessPid(), orphanSocket);

        OrphanReaper.reap(root);

        assertThat(live).exists();
        assertThat(liveSocket).exists();
        assertThat(orphan).doesNotExist();
        assertThat(orphanSocket).doesNotExist();
    }

    @Test
    void leavesASocketDirectoryThatIsNotTheHarnesss(@TempDir Path tmp) throws Exception {
        Path root = Files.createDirectories(tmp.resolve("mysql-servers"));
        Path orphan = Files.createDirectories(root.resolve("s-orphan"));
        Path foreign = Files.createDirectories(tmp.resolve("someone-elses"));
        OrphanReaper.markOwner(orphan, finishedProcessPid(), foreign);

        OrphanReaper.reap(root);

        assertThat(orphan).doesNotExist();
        assertThat(foreign).exists();
    }

    @Test
    void keepsADirectoryWithoutAnOwner(@TempDir Path tmp) throws IOException {
        Path root = Files.createDirectories(tmp.resolve("mysql-servers"));
        Path unmarked = Files.createDirectories(root.resolve("s-unmarked"));

        OrphanReaper.reap(root);

        assertThat(unmarked).exists();
    }

    /** The pid of a process that has exited (a pid not reused in the few ms of the test). */
    private static long finishedProcessPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }
}
