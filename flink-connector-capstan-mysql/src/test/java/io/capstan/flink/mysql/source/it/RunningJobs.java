package io.capstan.flink.mysql.source.it;

import io.capstan.flink.mysql.error.CapstanHaltException;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.util.ExceptionUtils;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The jobs a test class starts one after another on a MiniCluster of few slots: each test starts
 * with no injected failure ({@link FailAtCounts}), and the jobs a failed test left running are
 * cancelled after it, so that they do not hold the slots of the next.
 *
 * <pre>{@code @RegisterExtension final RunningJobs jobs = new RunningJobs();}</pre>
 */
public final class RunningJobs implements BeforeEachCallback, AfterEachCallback {

    private final List<JobClient> jobs = new ArrayList<>();

    /** Tracks {@code job} until the end of the test; returns it. */
    public JobClient add(JobClient job) {
        jobs.add(job);
        return job;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        FailAtCounts.arm(List.of());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        for (JobClient job : jobs) {
            catchThrowable(() -> job.cancel().get(30, TimeUnit.SECONDS));
        }
        jobs.clear();
    }

    /**
     * The halt that ends {@code job} within {@code timeout}; fails the test (and cancels the job,
     * which would hold a slot) when the job ends otherwise or runs on.
     */
    public static CapstanHaltException haltOf(JobClient job, Duration timeout) {
        Throwable failure =
                catchThrowable(
                        () ->
                                job.getJobExecutionResult()
                                        .get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        Optional<CapstanHaltException> halt =
                ExceptionUtils.findThrowable(failure, CapstanHaltException.class);
        if (halt.isEmpty()) {
            catchThrowable(() -> job.cancel().get(30, TimeUnit.SECONDS));
        }
        assertThat(halt).as(String.valueOf(failure)).isPresent();
        return halt.get();
    }
}
