/**
 * The binlog events transaction assembly reads, owned by capstan: the binlog client adapter turns
 * each library event into one of these, so the code that reads them needs no binlog library. Pure
 * values, free of I/O.
 *
 * <p>Uses: no other package of the connector.
 */
package io.capstan.flink.mysql.stream.event;
