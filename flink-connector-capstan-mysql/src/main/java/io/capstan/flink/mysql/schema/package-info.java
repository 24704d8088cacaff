/**
 * Table identities and schemas as MySQL declares them, read from the catalogue or from the binlog's
 * table maps, and their Flink types.
 *
 * <p>Uses: {@code error}.
 */
package io.capstan.flink.mysql.schema;
