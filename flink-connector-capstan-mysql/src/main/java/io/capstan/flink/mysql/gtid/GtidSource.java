package io.capstan.flink.mysql.gtid;

/** One source of GTIDs, a canonical uuid and tag, ordered as MySQL prints sets. */
record GtidSource(String uuid, String tag) implements Comparable<GtidSource> {

    @Override
    public int compareTo(GtidSource o) {
        return Gtid.compareSource(uuid, tag, o.uuid, o.tag);
    }
}
