package io.capstan.flink.mysql.e2e.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Starts the JVMs of a cluster the way flink-dist's scripts do: the same java, the Java 17 module
 * openings, log4j writing to a file, a classpath of jars, and the memory flags and dynamic
 * properties that {@code BashJavaUtils} computes from the configuration.
 */
final class JvmLauncher {
    /** What Flink's scripts pass on Java 17 (env.java.default-opts.all of flink-dist's config). */
    static final List<String> MODULE_OPENINGS =
            List.of(
                    "--add-exports=java.base/sun.net.util=ALL-UNNAMED",
                    "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang=ALL-UNNAMED",
                    "--add-opens=java.base/java.net=ALL-UNNAMED",
                    "--add-opens=java.base/java.io=ALL-UNNAMED",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens=java.base/java.text=ALL-UNNAMED",
                    "--add-opens=java.base/java.time=ALL-UNNAMED",
                    "--add-opens=java.base/java.util=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
                    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";

    private final Path confDir;
    private final Path logDir;
    private final Path pidFile;
    private final String classpath;
    private final List<String> extraJvmOptions;

    JvmLauncher(
            Path confDir,
            Path logDir,
            Path pidFile,
            List<Path> classpath,
            List<String> extraJvmOptions) {
        this.confDir = confDir;
        this.logDir = logDir;
        this.pidFile = pidFile;
        this.classpath =
                classpath.stream()
                        .map(Path::toString)
                        .collect(Collectors.joining(File.pathSeparator));
        this.extraJvmOptions = List.copyOf(extraJvmOptions);
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Runs {@code BashJavaUtils GET_TM_RESOURCE_PARAMS} (or {@code GET_JM_RESOURCE_PARAMS}) as
     * flink-dist's config.sh does and returns its two results: the JVM memory flags and the {@code
     * -D key=value} dynamic properties.
     */
    ResourceParams resourceParams(String command) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.addAll(MODULE_OPENINGS);
        cmd.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        cmd.addAll(List.of("-cp", classpath, "org.apache.flink.runtime.util.bash.BashJavaUtils"));
        cmd.addAll(List.of(command, "--configDir", confDir.toString()));
        Path out = logDir.resolve("bash-java-utils-" + command + ".out");
        try {
            Process process =
                    new ProcessBuilder(cmd)
                            .redirectErrorStream(true)
                            .redirectOutput(out.toFile())
                            .start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "BashJavaUtils " + command + " hung; output in " + out);
            }
            List<String> results =
                    Files.readAllLines(out).stream()
                            .filter(line -> line.startsWith(RESULT_PREFIX))
                            .map(line -> line.substring(RESULT_PREFIX.length()).trim())
                            .collect(Collectors.toList());
            if (process.exitValue() != 0 || results.size() < 2) {
                throw new IllegalStateException(
                        "BashJavaUtils "
                                + command
                                + " failed (exit "
                                + process.exitValue()
                                + "); its output in "
                                + out
                                + ":\n"
                                + String.join("\n", FlinkProcess.tail(out, 40)));
            }
            // config.sh takes the last two results: JVM parameters, then dynamic configs
            return new ResourceParams(
                    split(results.get(results.size() - 2)), split(results.get(results.size() - 1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted running BashJavaUtils", e);
        }
    }

    /**
     * Starts {@code mainClass} with the launcher's classpath plus {@code extraJars}, logging to
     * {@code <name>.log} (log4j) and {@code <name>.out} (stdout/stderr) in the log directory.
     */
    FlinkProcess start(
            String name,
            String mainClass,
            List<String> jvmOptions,
            List<Path> extraJars,
            List<String> programArgs,
            Map<String, String> environment) {
        Path logFile = logDir.resolve(name + ".log");
        Path outFile = logDir.resolve(name + ".out");
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("-XX:+IgnoreUnrecognizedVMOptions");
        cmd.addAll(MODULE_OPENINGS);
        cmd.addAll(jvmOptions);
        cmd.addAll(extraJvmOptions);
        cmd.add("-Dlog.file=" + logFile);
        cmd.add("-Dlog4j.configurationFile=file:" + confDir.resolve("log4j.properties"));
        cmd.add("-Djava.io.tmpdir=" + confDir.getParent().resolve("tmp"));
        String fullClasspath = classpath;
        for (Path jar : extraJars) {
            fullClasspath += File.pathSeparator + jar.toAbsolutePath();
        }
        cmd.addAll(List.of("-cp", fullClasspath, mainClass));
        cmd.addAll(programArgs);
        ProcessBuilder builder =
                new ProcessBuilder(cmd)
                        .directory(confDir.getParent().toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(outFile.toFile());
        builder.environment().put("FLINK_CONF_DIR", confDir.toString());
        builder.environment().putAll(environment);
        try {
            Process process = builder.start();
            ProcessReaper.register(process, pidFile);
            return new FlinkProcess(name, process, logFile, outFile);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name, e);
        }
    }

    private static List<String> split(String line) {
        return line.isEmpty() ? List.of() : Arrays.asList(line.split("\\s+"));
    }

    /** The two results of BashJavaUtils. */
    record ResourceParams(List<String> jvmOptions, List<String> dynamicProperties) {}
}
