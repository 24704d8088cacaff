/**
 * The cursor gate: which binlog row changes the snapshot's chunks already hold, and its compact
 * encoding for checkpoints.
 *
 * <p>Uses: {@code error}, {@code event}, {@code gtid}, {@code schema}, {@code snapshot.ddl}, {@code
 * snapshot.key}, {@code snapshot.plan}.
 */
package io.capstan.flink.mysql.snapshot.gate;
