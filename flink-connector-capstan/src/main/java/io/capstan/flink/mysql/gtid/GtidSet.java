package io.capstan.flink.mysql.gtid;

import java.io.Serializable;
import java.util.TreeSet;

/** TEMPORARY stand-in for branch gtid's GtidSet (replaced on merge); not interval-compressed. */
public final class GtidSet implements Serializable {
    private static final long serialVersionUID = 1L;
    private final TreeSet<Gtid> members;

    private GtidSet(TreeSet<Gtid> members) {
        this.members = members;
    }

    public static GtidSet empty() {
        return new GtidSet(new TreeSet<>());
    }

    public static GtidSet parse(String text) {
        TreeSet<Gtid> m = new TreeSet<>();
        if (!text.isBlank()) {
            for (String part : text.split(",")) {
                String[] f = part.trim().split(":");
                for (int i = 1; i < f.length; i++) {
                    String[] r = f[i].split("-");
                    long lo = Long.parseLong(r[0]);
                    long hi = r.length > 1 ? Long.parseLong(r[1]) : lo;
                    for (long t = lo; t <= hi; t++) {
                        m.add(Gtid.of(f[0], t));
                    }
                }
            }
        }
        return new GtidSet(m);
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    public boolean contains(Gtid gtid) {
        return members.contains(gtid);
    }

    public GtidSet add(Gtid gtid) {
        TreeSet<Gtid> m = new TreeSet<>(members);
        m.add(gtid);
        return new GtidSet(m);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GtidSet && ((GtidSet) o).members.equals(members);
    }

    @Override
    public int hashCode() {
        return members.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        String uuid = null;
        long lo = -1;
        long hi = -1;
        for (Gtid g : members) {
            if (g.uuid().equals(uuid) && g.transactionId() == hi + 1) {
                hi++;
                continue;
            }
            if (uuid != null) {
                sb.append(lo == hi ? "" + lo : lo + "-" + hi);
            }
            if (!g.uuid().equals(uuid)) {
                sb.append(uuid == null ? "" : ",").append(g.uuid()).append(':');
            } else {
                sb.append(':');
            }
            uuid = g.uuid();
            lo = hi = g.transactionId();
        }
        if (uuid != null) {
            sb.append(lo == hi ? "" + lo : lo + "-" + hi);
        }
        return sb.toString();
    }
}
