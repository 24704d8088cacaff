/**
 * GTID sets and their algebra, binlog positions as ordinals in such sets for servers without GTIDs,
 * the rule that a job never compares the one kind with the other, and MariaDB positions (one GTID
 * per replication domain; not yet used by the source, ADR 0013). Pure.
 *
 * <p>Uses: {@code error}.
 */
package io.capstan.flink.mysql.gtid;
