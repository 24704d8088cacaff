package io.capstan.flink.mysql.e2e.testframe;

import org.apache.flink.connector.testframe.external.ExternalContextFactory;

/** A fresh {@link CapstanSourceExternalContext} (own tables, own start position) per test case. */
final class CapstanSourceExternalContextFactory
        implements ExternalContextFactory<CapstanSourceExternalContext> {

    private final MySqlExternalSystem system;
    private final UnboundedStart unboundedStart;

    CapstanSourceExternalContextFactory(MySqlExternalSystem system, UnboundedStart unboundedStart) {
        this.system = system;
        this.unboundedStart = unboundedStart;
    }

    @Override
    public CapstanSourceExternalContext createExternalContext(String testName) {
        return new CapstanSourceExternalContext(system, unboundedStart);
    }
}
