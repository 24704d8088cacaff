/**
 * Chunk keys: which columns split a table, their order (string keys by the server's sort weights)
 * and their encoding. Pure.
 *
 * <p>Uses: {@code error}, {@code schema}.
 */
package io.capstan.flink.mysql.snapshot.key;
