package io.capstan.flink.mysql.testing;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@Tag(FlinkLines.NEUTRAL)
class NativeLibraryCheckTest {

    @Test
    void missingLibaioGivesOneLineNamingThePackages(@TempDir Path fakeLibDir) throws IOException {
        Files.createFile(fakeLibDir.resolve("libnuma.so.1"));
        assertThat(NativeLibraryCheck.missingMessage(List.of(fakeLibDir)))
                .contains(
                        "MySQL test server needs Debian packages libaio1 and libnuma1: "
                                + "apt-get install -y libaio1 libnuma1");
        assertThat(NativeLibraryCheck.MISSING_MESSAGE).doesNotContain("\n");
    }

    @Test
    void missingLibnumaIsReportedToo(@TempDir Path fakeLibDir) throws IOException {
        Files.createFile(fakeLibDir.resolve("libaio.so.1"));
        assertThat(NativeLibraryCheck.missingMessage(List.of(fakeLibDir))).isPresent();
    }

    @Test
    void bothPresentPasses(@TempDir Path fakeLibDir) throws IOException {
        Files.createFile(fakeLibDir.resolve("libaio.so.1"));
        Files.createFile(fakeLibDir.resolve("libnuma.so.1"));
        assertThat(NativeLibraryCheck.missingMessage(List.of(fakeLibDir))).isEmpty();
    }

    @Test
    void recognisesTheDynamicLoadersFailure() {
        assertThat(
                        NativeLibraryCheck.isLoaderFailure(
                                "mysqld: error while loading shared libraries: libaio.so.1: cannot open shared object file"))
                .isTrue();
        assertThat(NativeLibraryCheck.isLoaderFailure("[ERROR] [MY-010119] [Server] Aborting"))
                .isFalse();
    }
}
