package io.capstan.flink.mysql.binlog;

import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import java.io.Serializable;

/** TEMPORARY stand-in for branch binlog's BinlogStartPosition (replaced on merge). */
public record BinlogStartPosition(GtidSet processed, Gtid partialTransaction, int rowsAlreadyEmitted)
        implements Serializable {}
