package io.capstan.flink.mysql.snapshot.gate;

import io.capstan.flink.mysql.gtid.GtidSet;
import io.capstan.flink.mysql.snapshot.key.ChunkKeySerializer;
import io.capstan.flink.mysql.snapshot.key.KeyTupleCodec;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the build before docs/adr/0007 wrote for a gate (format version 1: each distinct G as text),
 * kept to measure the old size and to check that this build still reads it.
 */
public final class CursorGateVersion1Writer {

    public static byte[] toBytes(CursorGate gate) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        Map<?, TableGate> tables = gate.tableGates();
        KeyTupleCodec.writeVarInt(out, tables.size());
        for (TableGate t : tables.values()) {
            ChunkKeySerializer.write(t.key(), out);
            Map<GtidSet, Integer> dictionary = new LinkedHashMap<>();
            for (int i = 0; i < t.chunkCount(); i++) {
                dictionary.putIfAbsent(t.gtidSet(i), dictionary.size());
            }
            KeyTupleCodec.writeVarInt(out, dictionary.size());
            for (GtidSet g : dictionary.keySet()) {
                byte[] text = g.toString().getBytes(StandardCharsets.US_ASCII);
                KeyTupleCodec.writeVarInt(out, text.length);
                out.write(text);
            }
            KeyTupleCodec.writeVarInt(out, t.chunkCount());
            for (int i = 0; i < t.chunkCount(); i++) {
                if (i > 0) {
                    KeyTupleCodec.write(t.low(i), out);
                }
                KeyTupleCodec.writeVarInt(out, dictionary.get(t.gtidSet(i)));
            }
        }
        return bytes.toByteArray();
    }

    private CursorGateVersion1Writer() {}
}
