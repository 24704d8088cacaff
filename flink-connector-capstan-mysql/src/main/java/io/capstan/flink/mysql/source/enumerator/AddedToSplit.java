package io.capstan.flink.mysql.source.enumerator;

import io.capstan.flink.mysql.source.split.BinlogSplit;

/** The holder's paused binlog split goes on with {@code added}'s tables and gate. */
record AddedToSplit(int holder, BinlogSplit added) {}
