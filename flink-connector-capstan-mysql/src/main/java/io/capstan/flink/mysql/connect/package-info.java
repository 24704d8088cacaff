/**
 * Connection settings and JDBC connections to MySQL: socket timeouts, cancellation of a call in
 * flight, TLS modes, MySQL Connector/J found at run time, and the server dialect (how MySQL and
 * MariaDB spell who they are and their GTID state).
 *
 * <p>Uses: the public API, {@code gtid}.
 */
package io.capstan.flink.mysql.connect;
