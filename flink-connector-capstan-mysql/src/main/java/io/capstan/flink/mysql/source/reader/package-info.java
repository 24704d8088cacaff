/**
 * The source reader: its split reader, the chunk and binlog fetchers and the emitters that gate and
 * hand records to Flink.
 *
 * <p>Uses: the public API, {@code binlog}, {@code compat}, {@code convert}, {@code error}, {@code
 * event}, {@code gtid}, {@code proxy}, {@code schema}, {@code snapshot.gate}, {@code snapshot.key},
 * {@code snapshot.plan}, {@code snapshot.read}, {@code source}, {@code source.event}, {@code
 * source.split}.
 */
package io.capstan.flink.mysql.source.reader;
