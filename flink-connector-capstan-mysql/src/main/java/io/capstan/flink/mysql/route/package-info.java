/**
 * A whole database through one source: changes split into a changelog per table.
 *
 * <p>Uses: the public API, {@code deserializer}, {@code error}, {@code proxy}, {@code
 * proxy.server}, {@code schema}, {@code source}.
 */
package io.capstan.flink.mysql.route;
