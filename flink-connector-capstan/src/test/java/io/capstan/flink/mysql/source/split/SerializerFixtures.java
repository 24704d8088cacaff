package io.capstan.flink.mysql.source.split;

import io.capstan.flink.mysql.binlog.BinlogStartPosition;
import io.capstan.flink.mysql.gtid.Gtid;
import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.schema.TableId;
import io.capstan.flink.mysql.source.enumerator.EnumState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects whose version-1 bytes are checked in under src/test/resources/serializer/. Never
 * change these objects or the files: they pin what old checkpoints and savepoints hold.
 */
public final class SerializerFixtures {

    static final String RESOURCE_DIR = "serializer/";

    static final GtidSet PROCESSED =
            GtidSet.parse(
                    "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5000:5002-9000,"
                            + "b8c5a1e2-0c2d-11ef-8d41-0242ac120002:1-77");
    static final List<TableId> TABLES =
            List.of(TableId.of("shop", "orders"), TableId.of("shop", "order_line"),
                    TableId.of("crm", "kunde_ä"));

    static final BinlogSplit BINLOG_AT_BOUNDARY =
            new BinlogSplit(TABLES, BinlogStartPosition.of(PROCESSED));
    static final BinlogSplit BINLOG_INSIDE_TRANSACTION =
            new BinlogSplit(
                    TABLES,
                    BinlogStartPosition.of(
                            PROCESSED, Gtid.of("3e11fa47-71ca-11e1-9e33-c80aa9429562", 5001), 31_337));

    static final EnumState ENUM_INITIAL = EnumState.initial();
    static final EnumState ENUM_PENDING = new EnumState(BINLOG_AT_BOUNDARY, false);
    static final EnumState ENUM_ASSIGNED = new EnumState(null, true);

    private SerializerFixtures() {}

    static Map<String, BinlogSplit> splits() {
        Map<String, BinlogSplit> m = new LinkedHashMap<>();
        m.put("binlog-split-boundary.v1.bin", BINLOG_AT_BOUNDARY);
        m.put("binlog-split-partial.v1.bin", BINLOG_INSIDE_TRANSACTION);
        return m;
    }

    static Map<String, EnumState> enumStates() {
        Map<String, EnumState> m = new LinkedHashMap<>();
        m.put("enum-state-initial.v1.bin", ENUM_INITIAL);
        m.put("enum-state-pending.v1.bin", ENUM_PENDING);
        m.put("enum-state-assigned.v1.bin", ENUM_ASSIGNED);
        return m;
    }

    static byte[] read(String name) throws IOException {
        try (InputStream in =
                SerializerFixtures.class.getClassLoader().getResourceAsStream(RESOURCE_DIR + name)) {
            if (in == null) {
                throw new IOException("missing checked-in serializer bytes " + RESOURCE_DIR + name);
            }
            return in.readAllBytes();
        }
    }

    /** Where the generator writes: the source tree, not target/. */
    static Path sourceFile(String name) throws IOException {
        Path dir = Paths.get("src/test/resources", RESOURCE_DIR);
        Files.createDirectories(dir);
        return dir.resolve(name);
    }
}
