/**
 * The events between source readers and the enumerator, with their serialized forms.
 *
 * <p>Uses: {@code gtid}, {@code schema}, {@code source.split}.
 */
package io.capstan.flink.mysql.source.event;
