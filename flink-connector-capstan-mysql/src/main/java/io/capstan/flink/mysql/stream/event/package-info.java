/**
 * The binlog events transaction assembly reads, owned by capstan: the binlog client adapter turns a
 * library event into one of these, so the code that reads them needs no binlog library (so far the
 * XA prepare handling; the other handlers of transaction assembly still read library events). Pure
 * values, free of I/O.
 *
 * <p>Uses: no other package of the connector.
 */
package io.capstan.flink.mysql.stream.event;
