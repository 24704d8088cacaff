package io.capstan.flink.mysql.preflight;

import io.capstan.flink.mysql.connect.MySqlConnectionConfig;
import io.capstan.flink.mysql.schema.TableId;
import java.util.Collection;

/** TEMPORARY stand-in for branch preflight's Preflight (replaced on merge). */
public final class Preflight {
    private Preflight() {}

    public static void verify(MySqlConnectionConfig config, Collection<TableId> tables) {
        throw new UnsupportedOperationException("stand-in: branch preflight not merged yet");
    }
}
