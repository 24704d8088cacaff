package io.capstan.flink.mysql.source.split;

import org.apache.flink.annotation.Internal;

/** The kinds of {@link CapstanSplit}; the serializer writes the tag. */
@Internal
public enum SplitKind {
    /** The one stream of the binlog from a GTID-set position. */
    BINLOG((byte) 1),
    /** A primary-key range of one table read at an exact GTID set (the snapshot feature). */
    SNAPSHOT_CHUNK((byte) 2);

    private final byte tag;

    SplitKind(byte tag) {
        this.tag = tag;
    }

    byte tag() {
        return tag;
    }

    static SplitKind ofTag(byte tag) {
        for (SplitKind k : values()) {
            if (k.tag == tag) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown split kind tag " + tag);
    }
}
