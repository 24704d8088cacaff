package io.capstan.flink.mysql.error;

import org.apache.flink.annotation.PublicEvolving;

/**
 * Every named reason for which capstan-mysql refuses to start or stops a running job.
 *
 * <p>The {@link #code()} is the stable, documented name users search for (docs/halts.md, the one
 * catalogue, lists each with its remedy). Reasons describe settings, tables and positions, never
 * row values.
 */
@PublicEvolving
public enum HaltReason {
    // Preflight: server settings and privileges, checked before anything is read.
    BINLOG_DISABLED("binlog_disabled"),
    BINLOG_FORMAT_NOT_ROW("binlog_format_not_row"),
    BINLOG_ROW_IMAGE_NOT_FULL("binlog_row_image_not_full"),
    BINLOG_ROW_METADATA_NOT_FULL("binlog_row_metadata_not_full"),
    BINLOG_ROW_VALUE_OPTIONS_SET("binlog_row_value_options_set"),
    GTID_MODE_NOT_ON("gtid_mode_not_on"),
    ENFORCE_GTID_CONSISTENCY_NOT_ON("enforce_gtid_consistency_not_on"),
    MISSING_PRIVILEGE("missing_privilege"),
    UNSUPPORTED_SERVER_VERSION("unsupported_server_version"),
    LOG_REPLICA_UPDATES_OFF("log_replica_updates_off"),
    TAGGED_GTIDS_UNSUPPORTED("tagged_gtids_unsupported"),
    BINLOG_COMPRESSION_ON("binlog_compression_on"),
    // The snapshot's replica (scan.snapshot.hostname): before anything is read and per chunk.
    SNAPSHOT_SERVER_DIVERGED("snapshot_server_diverged"),
    SNAPSHOT_SERVER_CHANGED("snapshot_server_changed"),

    // Configuration and tables, checked before anything is read.
    INVALID_CONFIGURATION("invalid_configuration"),
    INVALID_START_POSITION("invalid_start_position"),
    NO_TABLES_MATCHED("no_tables_matched"),
    TABLE_WITHOUT_KEY("table_without_key"),
    UNSUPPORTED_COLUMN_TYPE("unsupported_column_type"),
    UNSUPPORTED_CHUNK_KEY("unsupported_chunk_key"),
    NON_TRANSACTIONAL_TABLE("non_transactional_table"),
    SYSTEM_VERSIONED_TABLE("system_versioned_table"),
    LOCK_WAIT_BUDGET_EXHAUSTED("lock_wait_budget_exhausted"),

    // While streaming.
    DATA_GAP("data_gap"),
    SOURCE_IDENTITY_MISMATCH("source_identity_mismatch"),
    GTID_MODE_CHANGED("gtid_mode_changed"),
    SERVER_ID_CONFLICT("server_id_conflict"),
    UNMAPPED_TABLE_ID("unmapped_table_id"),
    UNDECODABLE_COLUMN("undecodable_column"),
    XA_UNSUPPORTED("xa_unsupported"),
    UNKNOWN_BINLOG_EVENT("unknown_binlog_event"),
    GTID_ORDER_BROKEN("gtid_order_broken"),
    XA_PENDING_ROWS_EXCEEDED("xa_pending_rows_exceeded"),
    XA_PREPARED_BEFORE_START("xa_prepared_before_start"),
    SNAPSHOT_SCHEMA_DRIFTED("snapshot_schema_drifted"),
    RECONNECT_BUDGET_EXHAUSTED("reconnect_budget_exhausted"),
    STATEMENT_BASED_CHANGE("statement_based_change"),
    FOREIGN_KEY_CASCADE("foreign_key_cascade"),
    CAPTURED_TABLE_TRUNCATED("captured_table_truncated"),
    CAPTURED_TABLE_REMOVED("captured_table_removed"),
    TABLE_ENTERED_SELECTION("table_entered_selection"),
    TRANSACTION_WITHOUT_END("transaction_without_end"),
    TRANSACTION_ROLLED_BACK("transaction_rolled_back"),
    PARTIAL_ROW_UPDATE("partial_row_update"),
    ROW_MOVED_BETWEEN_CHUNKS("row_moved_between_chunks"),
    TABLE_LIST_CHANGED("table_list_changed");

    private final String code;

    HaltReason(String code) {
        this.code = code;
    }

    /** The stable name of this reason, as documented and as printed in messages. */
    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return code;
    }
}
