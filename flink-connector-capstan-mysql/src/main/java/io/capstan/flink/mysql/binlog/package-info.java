/**
 * The binlog streamer: one connection to the server's binlog, read through the binlog library,
 * turned into row changes and transaction ends at exact positions, with reconnects that resume
 * exactly and halts for what cannot be delivered exactly. {@code BinlogEventAdapter} turns the
 * library's events into capstan's own ({@code stream.event}).
 *
 * <p>Uses: the public API, {@code connect}, {@code convert}, {@code error}, {@code event}, {@code
 * gtid}, {@code schema}, {@code schema.read}, {@code snapshot.ddl}, {@code stream.event}.
 */
package io.capstan.flink.mysql.binlog;
