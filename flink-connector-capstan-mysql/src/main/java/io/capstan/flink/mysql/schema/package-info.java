/**
 * Table identities and schemas as MySQL declares them, and their Flink types: values only (their
 * readers, from the catalogue and from the binlog's table maps, are {@code schema.read}). Pure.
 *
 * <p>Uses: {@code error}.
 */
package io.capstan.flink.mysql.schema;
