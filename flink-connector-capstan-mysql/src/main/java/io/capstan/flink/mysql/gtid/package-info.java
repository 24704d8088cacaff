/**
 * GTID sets and their algebra, binlog positions as ordinals in such sets for servers without GTIDs,
 * and MariaDB positions (one GTID per replication domain; not yet used by the source, ADR 0013).
 * Pure.
 *
 * <p>Uses: no other package of the connector.
 */
package io.capstan.flink.mysql.gtid;
