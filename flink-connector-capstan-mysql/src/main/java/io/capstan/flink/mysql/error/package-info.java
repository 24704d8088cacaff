/**
 * The named halts: every reason this connector refuses to start or stops, and the exceptions that
 * carry one.
 *
 * <p>Uses: no other package of the connector.
 */
package io.capstan.flink.mysql.error;
