/**
 * GTID sets and their algebra, binlog positions as ordinals in such sets for servers without GTIDs,
 * and the rule that a job never compares the one kind with the other. Pure.
 *
 * <p>Uses: {@code error}.
 */
package io.capstan.flink.mysql.gtid;
