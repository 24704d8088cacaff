package io.capstan.flink.mysql.e2e.chaos;

/** What the {@link Nemesis} can do to a running job, its cluster, the network or MySQL. */
public enum Fault {
    /** SIGKILL of a TaskManager running the job; a replacement is started. */
    TASK_MANAGER_KILL(20),
    /** Every connection through the proxy closed with a TCP reset. */
    NETWORK_RESET(14),
    /** The proxy forwards nothing for 2 to 8 s, then passes again (nothing is lost). */
    NETWORK_STALL(12),
    /** {@code KILL} of every connection of the connector's account (processlist by user). */
    KILL_CONNECTIONS(14),
    /** {@code FLUSH BINARY LOGS}: the stream crosses into a new binlog file. */
    BINLOG_ROTATION(10),
    /** mysqld shut down cleanly and started again (same port, data and GTID history). */
    MYSQL_RESTART(10),
    /** The job cancelled and submitted again from its latest retained checkpoint. */
    CHECKPOINT_RESTORE(10),
    /** Stop with a savepoint, then the job submitted again from it. */
    SAVEPOINT_RESTORE(10);

    /** Relative frequency in a schedule. */
    final int weight;

    Fault(int weight) {
        this.weight = weight;
    }
}
