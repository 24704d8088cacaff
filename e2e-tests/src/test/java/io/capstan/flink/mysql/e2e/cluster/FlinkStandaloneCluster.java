package io.capstan.flink.mysql.e2e.cluster;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real standalone Flink session cluster of separate JVMs, built from the Maven classpath (no
 * flink-dist): one JobManager ({@code StandaloneSessionClusterEntrypoint}) and N TaskManagers
 * ({@code TaskManagerRunner}), everything on 127.0.0.1 on free ports, configured by a {@code
 * config.yaml} written into {@code <work dir>/<name>/conf}, logging into {@code <work
 * dir>/<name>/log}. TaskManagers are named (their resource id) tm-1, tm-2, ... in start order.
 * {@link #close()} kills every process it started; so does a JVM shutdown hook, and the next
 * cluster started with the same name kills leftovers of a test JVM that died without its hooks.
 *
 * <pre>{@code
 * try (FlinkStandaloneCluster cluster = FlinkStandaloneCluster.builder().name("MyIT").start()) {
 *     String jobId = cluster.submitJar(E2eBuild.jobsJar(), "my.Job", List.of("--x", "1"), 2);
 *     cluster.waitForJobState(jobId, Duration.ofMinutes(2), "FINISHED");
 * }
 * }</pre>
 */
public final class FlinkStandaloneCluster implements AutoCloseable {
    private static final String JOB_MANAGER_MAIN =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    private static final String TASK_MANAGER_MAIN =
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    private static final Set<String> TERMINAL_STATES =
            Set.of("FINISHED", "CANCELED", "FAILED", "SUSPENDED");

    /** Flink's text for a checkpoint that a TaskManager refused for a task it no longer runs. */
    private static final String TASK_GONE = "Task local checkpoint failure";

    private final Builder settings;
    private final Path workDir;
    private final Path confDir;
    private final Path logDir;
    private final int restPort;
    private final JvmLauncher launcher;
    private final FlinkRestClient rest;
    private final List<FlinkProcess> liveTaskManagers = new ArrayList<>();
    private final List<FlinkProcess> allProcesses = new ArrayList<>();
    private final List<SqlGateway> gateways = new ArrayList<>();
    private final Map<Path, String> uploadedJars = new HashMap<>();
    private JvmLauncher.ResourceParams taskManagerParams;
    private FlinkProcess jobManager;
    private int taskManagersStarted;
    private long startupMillis;

    private FlinkStandaloneCluster(Builder settings) {
        this.settings = settings;
        this.workDir = E2eBuild.workDir().resolve(settings.name);
        this.confDir = workDir.resolve("conf");
        this.logDir = workDir.resolve("log");
        this.restPort = FreePorts.next();
        this.rest = new FlinkRestClient("http://127.0.0.1:" + restPort);
        List<Path> classpath = new ArrayList<>(E2eBuild.clusterClasspath());
        classpath.addAll(settings.extraJars);
        this.launcher =
                new JvmLauncher(
                        confDir, logDir, workDir.resolve("pids"), classpath, settings.jvmOptions);
    }

    public static Builder builder() {
        return new Builder();
    }

    private FlinkStandaloneCluster start() {
        long started = System.nanoTime();
        try {
            prepareWorkDir();
            ClusterConfigFiles.write(confDir, configuration());
            CompletableFuture<JvmLauncher.ResourceParams> tmParams =
                    CompletableFuture.supplyAsync(
                            () -> launcher.resourceParams("GET_TM_RESOURCE_PARAMS"));
            JvmLauncher.ResourceParams jmParams = launcher.resourceParams("GET_JM_RESOURCE_PARAMS");
            jobManager =
                    launcher.start(
                            "jobmanager",
                            JOB_MANAGER_MAIN,
                            jmParams.jvmOptions(),
                            List.of(),
                            args(jmParams.dynamicProperties()),
                            Map.of());
            allProcesses.add(jobManager);
            taskManagerParams = tmParams.join();
            for (int i = 0; i < settings.taskManagers; i++) {
                launchTaskManager();
            }
            awaitRegisteredTaskManagers(settings.startupTimeout);
            startupMillis = (System.nanoTime() - started) / 1_000_000;
            return this;
        } catch (RuntimeException | Error e) {
            String diagnostics = diagnostics();
            close();
            throw new IllegalStateException(
                    "Flink cluster '"
                            + settings.name
                            + "' did not start: "
                            + e.getMessage()
                            + "\n"
                            + diagnostics,
                    e);
        }
    }

    private void prepareWorkDir() {
        ProcessReaper.killLeftovers(workDir.resolve("pids"), workDir.toString());
        try {
            if (Files.exists(workDir)) {
                try (Stream<Path> files = Files.walk(workDir)) {
                    for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(file);
                    }
                }
            }
            for (String dir : List.of("conf", "log", "tmp", "upload", "web", "checkpoints")) {
                Files.createDirectories(workDir.resolve(dir));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Map<String, String> configuration() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jobmanager.rpc.address", "127.0.0.1");
        config.put("jobmanager.rpc.port", Integer.toString(FreePorts.next()));
        config.put("jobmanager.bind-host", "127.0.0.1");
        config.put("jobmanager.memory.process.size", settings.jobManagerProcessSize);
        config.put("taskmanager.host", "127.0.0.1");
        config.put("taskmanager.bind-host", "127.0.0.1");
        config.put("taskmanager.numberOfTaskSlots", Integer.toString(settings.slotsPerTaskManager));
        config.put("taskmanager.memory.process.size", settings.taskManagerProcessSize);
        config.put("taskmanager.memory.managed.size", settings.managedMemorySize);
        config.put("rest.address", "127.0.0.1");
        config.put("rest.bind-address", "127.0.0.1");
        config.put("rest.port", Integer.toString(restPort));
        config.put("io.tmp.dirs", workDir.resolve("tmp").toString());
        config.put("web.upload.dir", workDir.resolve("upload").toString());
        config.put("web.tmpdir", workDir.resolve("web").toString());
        config.put("parallelism.default", "1");
        config.put("state.backend.type", settings.stateBackend);
        config.put(
                "execution.checkpointing.dir", workDir.resolve("checkpoints").toUri().toString());
        config.put(
                "execution.checkpointing.savepoint-dir",
                workDir.resolve("savepoints").toUri().toString());
        if (settings.checkpointInterval != null) {
            config.put(
                    "execution.checkpointing.interval",
                    settings.checkpointInterval.toMillis() + " ms");
        }
        config.put("restart-strategy.type", "fixed-delay");
        config.put("restart-strategy.fixed-delay.attempts", "100");
        config.put("restart-strategy.fixed-delay.delay", "1 s");
        // A SIGKILLed TaskManager is noticed after the heartbeat timeout at the latest.
        config.put("heartbeat.interval", "1000");
        config.put("heartbeat.timeout", Long.toString(settings.heartbeatTimeout.toMillis()));
        config.putAll(settings.configuration);
        return config;
    }

    private FlinkProcess launchTaskManager() {
        String name = "tm-" + (++taskManagersStarted);
        List<String> dynamic = new ArrayList<>(taskManagerParams.dynamicProperties());
        dynamic.addAll(List.of("-D", "taskmanager.resource-id=" + name));
        FlinkProcess tm =
                launcher.start(
                        name,
                        TASK_MANAGER_MAIN,
                        taskManagerParams.jvmOptions(),
                        List.of(),
                        args(dynamic),
                        Map.of());
        liveTaskManagers.add(tm);
        allProcesses.add(tm);
        return tm;
    }

    private List<String> args(List<String> dynamicProperties) {
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString()));
        args.addAll(dynamicProperties);
        return args;
    }

    // ---- cluster state ----

    public int restPort() {
        return restPort;
    }

    /** {@code http://127.0.0.1:<rest port>}. */
    public String restUrl() {
        return rest.baseUrl();
    }

    public FlinkRestClient rest() {
        return rest;
    }

    public Path workDir() {
        return workDir;
    }

    public Path confDir() {
        return confDir;
    }

    /** Milliseconds from {@code start()} until every TaskManager had registered. */
    public long startupMillis() {
        return startupMillis;
    }

    public FlinkProcess jobManager() {
        return jobManager;
    }

    /** The TaskManagers started and not killed, in start order. */
    public List<FlinkProcess> taskManagers() {
        return List.copyOf(liveTaskManagers);
    }

    public List<Long> taskManagerPids() {
        return liveTaskManagers.stream().map(FlinkProcess::pid).toList();
    }

    /**
     * Kills the {@code index}-th live TaskManager with SIGKILL, no shutdown of any kind, and
     * returns its exit code (137). The JobManager notices on its own (at the latest after the
     * heartbeat timeout).
     */
    public int killTaskManager(int index) {
        FlinkProcess tm = liveTaskManagers.remove(index);
        return tm.kill();
    }

    /**
     * Kills the live TaskManager with this resource id (see {@link
     * FlinkRestClient#taskManagersOfJob}).
     */
    public int killTaskManager(String name) {
        for (int i = 0; i < liveTaskManagers.size(); i++) {
            if (liveTaskManagers.get(i).name().equals(name)) {
                return killTaskManager(i);
            }
        }
        throw new IllegalArgumentException("No live TaskManager named " + name);
    }

    /**
     * The resource id of a TaskManager running a subtask of the job (see {@link
     * FlinkRestClient#taskManagersOfJob}); waits up to {@code timeout} while none does, as during a
     * (re)deployment of the job's tasks.
     */
    public String aTaskManagerRunning(String jobId, Duration timeout) {
        String[] found = {null};
        await(
                "a TaskManager running a subtask of job " + jobId,
                timeout,
                () -> {
                    Set<String> running = rest.taskManagersOfJob(jobId);
                    if (running.isEmpty()) {
                        return false;
                    }
                    found[0] = running.iterator().next();
                    return true;
                });
        return found[0];
    }

    /** Starts one more TaskManager and waits until it has registered at the JobManager. */
    public FlinkProcess startTaskManager() {
        FlinkProcess tm = launchTaskManager();
        await(
                "TaskManager " + tm.name() + " to register",
                settings.startupTimeout,
                () -> rest.taskManagerIds().contains(tm.name()));
        return tm;
    }

    /**
     * Waits until the JobManager's registered TaskManagers are exactly the live ones: after {@link
     * #killTaskManager} this is when the JobManager has noticed the loss.
     */
    public void awaitRegisteredTaskManagers(Duration timeout) {
        await(
                "the registered TaskManagers to be " + liveNames(),
                timeout,
                () -> rest.taskManagerIds().equals(liveNames()));
    }

    private Set<String> liveNames() {
        return liveTaskManagers.stream()
                .map(FlinkProcess::name)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    // ---- jobs ----

    /** Uploads the jar (once per path) and runs it; returns the job id. */
    public String submitJar(Path jar, String entryClass, List<String> args, int parallelism) {
        String jarId = uploadedJars.computeIfAbsent(jar.toAbsolutePath(), rest::uploadJar);
        return rest.runJar(jarId, entryClass, args, parallelism);
    }

    /** {@link #submitJar} restoring the job from the savepoint at {@code savepointPath}. */
    public String submitJar(
            Path jar, String entryClass, List<String> args, int parallelism, String savepointPath) {
        String jarId = uploadedJars.computeIfAbsent(jar.toAbsolutePath(), rest::uploadJar);
        return rest.runJar(jarId, entryClass, args, parallelism, savepointPath);
    }

    /**
     * Stops the job with a savepoint into the cluster's savepoint dir (no drain), waits until the
     * savepoint is complete and the job FINISHED, and returns the savepoint's location.
     *
     * <p>A savepoint that Flink refuses because a TaskManager no longer knew one of the job's tasks
     * ({@value #TASK_GONE}: a source subtask told "no more splits" at the handoff finished between
     * the checkpoint's plan and its trigger) leaves the job running; it is tried again, as an
     * operator would. Any other failure fails at once.
     */
    public String stopWithSavepoint(String jobId, Duration timeout) {
        for (int attempt = 1; ; attempt++) {
            JsonNode operation = savepointOutcome(jobId, timeout);
            if (operation.hasNonNull("location")) {
                waitForJobState(jobId, timeout, "FINISHED");
                return operation.path("location").asText();
            }
            String cause = operation.path("failure-cause").toString();
            if (attempt == 3 || !cause.contains(TASK_GONE)) {
                throw new IllegalStateException("Savepoint of job " + jobId + " failed: " + cause);
            }
            System.out.printf("Savepoint of job %s refused (%s), trying again%n", jobId, TASK_GONE);
            waitForJobState(jobId, timeout, "RUNNING");
        }
    }

    /** Triggers a stop-with-savepoint and returns its finished {@code operation}. */
    private JsonNode savepointOutcome(String jobId, Duration timeout) {
        String triggerId =
                rest.stopWithSavepoint(jobId, workDir.resolve("savepoints").toUri().toString());
        JsonNode[] operation = {null};
        await(
                "the savepoint of job " + jobId,
                timeout,
                () -> {
                    JsonNode status = rest.savepointStatus(jobId, triggerId);
                    operation[0] = status.path("operation");
                    return "COMPLETED".equals(status.path("status").path("id").asText());
                });
        return operation[0];
    }

    public String jobState(String jobId) {
        return rest.jobState(jobId);
    }

    public void cancelJob(String jobId) {
        rest.cancel(jobId);
    }

    /**
     * Waits until the job is in one of {@code states} and returns it. Fails at once, with the job's
     * exceptions, if the job reaches another terminal state.
     */
    public String waitForJobState(String jobId, Duration timeout, String... states) {
        Set<String> wanted = Set.of(states);
        String[] last = {""};
        await(
                "job " + jobId + " to be " + wanted,
                timeout,
                () -> {
                    last[0] = rest.jobState(jobId);
                    if (!wanted.contains(last[0]) && TERMINAL_STATES.contains(last[0])) {
                        throw new IllegalStateException(
                                "Job "
                                        + jobId
                                        + " ended "
                                        + last[0]
                                        + " instead of "
                                        + wanted
                                        + "; exceptions: "
                                        + rest.exceptions(jobId));
                    }
                    return wanted.contains(last[0]);
                });
        return last[0];
    }

    /** Waits until the job has at least {@code count} completed checkpoints. */
    public void waitForCompletedCheckpoints(String jobId, long count, Duration timeout) {
        await(
                count + " completed checkpoints of job " + jobId,
                timeout,
                () -> rest.completedCheckpoints(jobId) >= count);
    }

    // ---- SQL ----

    /**
     * Starts a SQL Gateway JVM against this cluster with the cluster's classpath plus {@code
     * extraJars} (e.g. the shaded connector jar); closed with the cluster.
     */
    public SqlGateway startSqlGateway(List<Path> extraJars) {
        SqlGateway gateway =
                SqlGateway.start(
                        launcher,
                        "sql-gateway-" + (gateways.size() + 1),
                        restPort,
                        extraJars,
                        settings.startupTimeout);
        gateways.add(gateway);
        allProcesses.add(gateway.process());
        return gateway;
    }

    // ---- diagnostics and shutdown ----

    /** State, log paths and log tails of every process started, for failure messages. */
    public String diagnostics() {
        StringBuilder text =
                new StringBuilder(
                        "Flink cluster '"
                                + settings.name
                                + "', conf in "
                                + confDir
                                + ", logs in "
                                + logDir
                                + "\n");
        for (FlinkProcess process : allProcesses) {
            text.append(process.diagnostics(25));
        }
        return text.toString();
    }

    /** Kills every process this cluster started (SQL Gateways, TaskManagers, JobManager). */
    @Override
    public void close() {
        for (SqlGateway gateway : gateways) {
            gateway.close();
        }
        for (FlinkProcess process : allProcesses) {
            if (process.isAlive()) {
                process.kill();
            }
        }
        liveTaskManagers.clear();
    }

    private void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException lastError = null;
        while (System.nanoTime() < deadline) {
            for (FlinkProcess process : allProcesses) {
                boolean expectedDead =
                        process != jobManager
                                && !liveTaskManagers.contains(process)
                                && gateways.stream().noneMatch(g -> g.process() == process);
                if (!process.isAlive() && !expectedDead) {
                    throw new IllegalStateException(
                            process.name()
                                    + " died while waiting for "
                                    + what
                                    + "\n"
                                    + diagnostics());
                }
            }
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
                lastError = null;
            } catch (IllegalStateException e) {
                throw e;
            } catch (RuntimeException e) {
                lastError = e; // REST not up yet, job not known yet
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            }
        }
        throw new IllegalStateException(
                "Timed out after "
                        + timeout
                        + " waiting for "
                        + what
                        + (lastError == null ? "" : " (last error: " + lastError.getMessage() + ")")
                        + "\n"
                        + diagnostics());
    }

    /** The settings of a cluster; {@link #start()} starts it. */
    public static final class Builder {
        private String name = "cluster";
        private int taskManagers = 2;
        private int slotsPerTaskManager = 1;
        private String jobManagerProcessSize = "1024m";
        private String taskManagerProcessSize = "1280m";
        private String managedMemorySize = "128m";
        private String stateBackend = "hashmap";
        private Duration checkpointInterval;
        private Duration heartbeatTimeout = Duration.ofSeconds(10);
        private Duration startupTimeout = Duration.ofMinutes(3);
        private final List<Path> extraJars = new ArrayList<>();
        private final List<String> jvmOptions =
                new ArrayList<>(Arrays.asList("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        private final Map<String, String> configuration = new LinkedHashMap<>();

        private Builder() {}

        /** The directory under the e2e work dir (one per test class; wiped on start). */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder taskManagers(int count) {
            this.taskManagers = count;
            return this;
        }

        public Builder slotsPerTaskManager(int slots) {
            this.slotsPerTaskManager = slots;
            return this;
        }

        /** {@code taskmanager.memory.process.size} (default 1280m). */
        public Builder taskManagerProcessSize(String size) {
            this.taskManagerProcessSize = size;
            return this;
        }

        /** {@code jobmanager.memory.process.size} (default 1024m). */
        public Builder jobManagerProcessSize(String size) {
            this.jobManagerProcessSize = size;
            return this;
        }

        /** {@code taskmanager.memory.managed.size} (default 128m; RocksDB lives in it). */
        public Builder managedMemorySize(String size) {
            this.managedMemorySize = size;
            return this;
        }

        /**
         * {@code hashmap} (default) or {@code rocksdb}; checkpoints go to the work dir either way.
         */
        public Builder stateBackend(String backend) {
            this.stateBackend = backend;
            return this;
        }

        /** A default checkpoint interval for jobs that set none (SQL jobs); default none. */
        public Builder checkpointInterval(Duration interval) {
            this.checkpointInterval = interval;
            return this;
        }

        /**
         * {@code heartbeat.timeout}: how long a SIGKILLed TaskManager may go unnoticed (default 10
         * s).
         */
        public Builder heartbeatTimeout(Duration timeout) {
            this.heartbeatTimeout = timeout;
            return this;
        }

        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = timeout;
            return this;
        }

        /**
         * A jar for the classpath of every JVM (JobManager, TaskManagers, SQL Gateways), as in
         * lib/.
         */
        public Builder addJar(Path jar) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException(
                        "Jar for the cluster classpath not found: " + jar);
            }
            this.extraJars.add(jar.toAbsolutePath());
            return this;
        }

        /**
         * Drops the default extra JVM options (serial GC and C1 only: less CPU on a small shared
         * machine, less peak throughput), e.g. for throughput measurements.
         */
        public Builder withoutDefaultJvmOptions() {
            this.jvmOptions.clear();
            return this;
        }

        /** A JVM option for every JVM, after the memory flags. */
        public Builder jvmOption(String option) {
            this.jvmOptions.add(option);
            return this;
        }

        /** Any config.yaml setting; overrides the defaults. */
        public Builder config(String key, String value) {
            this.configuration.put(key, value);
            return this;
        }

        public FlinkStandaloneCluster start() {
            return new FlinkStandaloneCluster(this).start();
        }
    }
}
