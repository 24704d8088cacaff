/**
 * Chunk planning: a table's key range cut into chunks. Pure.
 *
 * <p>Uses: {@code schema}, {@code snapshot.key}.
 */
package io.capstan.flink.mysql.snapshot.plan;
