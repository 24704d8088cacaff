/**
 * The splits (snapshot chunks and the one binlog split) with their versioned serializers.
 *
 * <p>Uses: {@code event}, {@code gtid}, {@code schema}, {@code snapshot.gate}, {@code
 * snapshot.key}, {@code snapshot.plan}.
 */
package io.capstan.flink.mysql.source.split;
