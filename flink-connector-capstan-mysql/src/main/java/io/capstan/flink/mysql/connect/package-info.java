/**
 * Connection settings and JDBC connections to MySQL: socket timeouts, cancellation of a call in
 * flight, TLS modes, and MySQL Connector/J found at run time.
 *
 * <p>Uses: the public API.
 */
package io.capstan.flink.mysql.connect;
