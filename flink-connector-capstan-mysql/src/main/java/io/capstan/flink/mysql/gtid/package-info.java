/**
 * GTID sets and their algebra, and binlog positions as ordinals in such sets for servers without
 * GTIDs. Pure.
 *
 * <p>Uses: no other package of the connector.
 */
package io.capstan.flink.mysql.gtid;
