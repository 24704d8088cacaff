/**
 * The adapter classes of one Flink line: the same classes with the same members exist for each
 * line, and the build compiles one set with the shared sources.
 *
 * <p>Uses: no other package of the connector.
 */
package io.capstan.flink.mysql.compat;
