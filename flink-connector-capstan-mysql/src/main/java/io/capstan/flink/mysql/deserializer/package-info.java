/**
 * The shipped deserializers of change events: Flink rows for the SQL path and Debezium-style JSON.
 *
 * <p>Uses: the public API, {@code error}, {@code event}, {@code schema}.
 */
package io.capstan.flink.mysql.deserializer;
