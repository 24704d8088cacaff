/**
 * The refusal of unsafe servers before anything is read: server settings, privileges and versions,
 * each refusal named with its remedy.
 *
 * <p>Uses: {@code connect}, {@code error}, {@code gtid}, {@code schema}.
 */
package io.capstan.flink.mysql.preflight;
