/**
 * The split enumerator: start position, snapshot planning, chunk assignment, the handoff to the
 * binlog split at a checkpoint, and tables added on restore; its rules are pure and unit-tested.
 *
 * <p>Uses: the public API, {@code binlog}, {@code error}, {@code event}, {@code gtid}, {@code
 * preflight}, {@code proxy}, {@code schema}, {@code snapshot.gate}, {@code snapshot.key}, {@code
 * snapshot.plan}, {@code snapshot.read}, {@code source}, {@code source.event}, {@code
 * source.split}.
 */
package io.capstan.flink.mysql.source.enumerator;
