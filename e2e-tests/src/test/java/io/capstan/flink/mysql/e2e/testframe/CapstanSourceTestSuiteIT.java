package io.capstan.flink.mysql.e2e.testframe;

import org.apache.flink.connector.testframe.environment.MiniClusterTestEnvironment;
import org.apache.flink.connector.testframe.junit.annotations.TestContext;
import org.apache.flink.connector.testframe.junit.annotations.TestEnv;
import org.apache.flink.connector.testframe.junit.annotations.TestExternalSystem;
import org.apache.flink.connector.testframe.junit.annotations.TestSemantics;
import org.apache.flink.connector.testframe.testsuites.SourceTestSuiteBase;
import org.apache.flink.core.execution.CheckpointingMode;

/**
 * Flink's own source test suite ({@code flink-connector-test-utils}) against capstan-mysql on the
 * harness's real MySQL and a MiniCluster. See docs/testing.md for which cases apply and why.
 */
class CapstanSourceTestSuiteIT extends SourceTestSuiteBase<String> {

    @TestEnv MiniClusterTestEnvironment flink = new MiniClusterTestEnvironment();

    @TestExternalSystem MySqlExternalSystem mysql = new MySqlExternalSystem();

    @TestContext
    CapstanSourceExternalContextFactory binlogFromCaseStart =
            new CapstanSourceExternalContextFactory(mysql, UnboundedStart.BINLOG_FROM_CASE_START);

    @TestSemantics CheckpointingMode[] semantics = {CheckpointingMode.EXACTLY_ONCE};
}
