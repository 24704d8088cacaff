/**
 * Schema changes seen while the snapshot runs: which tables they add, remove or alter.
 *
 * <p>Uses: {@code error}, {@code schema}.
 */
package io.capstan.flink.mysql.snapshot.ddl;
