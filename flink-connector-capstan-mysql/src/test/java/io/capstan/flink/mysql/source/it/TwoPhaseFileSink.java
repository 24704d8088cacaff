package io.capstan.flink.mysql.source.it;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A test sink whose visible output is exactly what Flink's checkpoints cover, so that a duplicate
 * or a gap in it can only come from the source.
 *
 * <p>Why not a collect sink: it hands records out as they arrive, so records emitted after the last
 * checkpoint and replayed after a restore show up twice; counting alone would hide that or blame
 * the sink. This sink is a two-phase commit, like Flink's FileSink: the writer appends lines to an
 * in-progress file; at each checkpoint it closes the file and hands its name over as a committable
 * (which Flink stores in the checkpoint); the committer moves it into {@code committed/} only after
 * the checkpoint completed. Lines written after the last completed checkpoint stay in an
 * in-progress file nobody commits, exactly like the source records that will be replayed. A
 * committable restored from a checkpoint is committed again idempotently (a file already moved
 * counts as committed). File names carry a JVM-wide sequence so reading them in name order gives
 * output order.
 */
public final class TwoPhaseFileSink extends ContextFreeSink<String>
        implements SupportsCommitter<String> {
    private static final long serialVersionUID = 1L;

    private static final AtomicLong FILE_SEQUENCE = new AtomicLong();

    private final String directory;

    public TwoPhaseFileSink(Path directory) {
        this.directory = directory.toAbsolutePath().toString();
    }

    /** All committed lines, in output order. */
    public static List<String> committedLines(Path directory) throws IOException {
        Path committed = directory.resolve("committed");
        if (!Files.isDirectory(committed)) {
            return Collections.emptyList();
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(committed)) {
            files = new ArrayList<>(s.filter(p -> p.toString().endsWith(".txt")).sorted().toList());
        }
        List<String> lines = new ArrayList<>();
        for (Path f : files) {
            lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
        }
        return lines;
    }

    @Override
    protected SinkWriter<String> createWriter() throws IOException {
        return new Writer(Paths.get(directory));
    }

    @Override
    public Committer<String> createCommitter(CommitterInitContext context) {
        return new FileCommitter(Paths.get(directory));
    }

    @Override
    public SimpleVersionedSerializer<String> getCommittableSerializer() {
        return new StringSerializer();
    }

    private static final class Writer implements CommittingSinkWriter<String, String> {
        private final Path inProgress;
        private final String writerId = UUID.randomUUID().toString();
        private BufferedWriter out;
        private String currentName;

        Writer(Path directory) throws IOException {
            this.inProgress = directory.resolve("in-progress");
            Files.createDirectories(inProgress);
            Files.createDirectories(directory.resolve("committed"));
        }

        @Override
        public void write(String element, Context context) throws IOException {
            if (out == null) {
                currentName =
                        String.format("%012d-%s.txt", FILE_SEQUENCE.incrementAndGet(), writerId);
                out =
                        Files.newBufferedWriter(
                                inProgress.resolve(currentName), StandardCharsets.UTF_8);
            }
            out.write(element);
            out.write('\n');
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            if (out != null) {
                out.flush();
            }
        }

        @Override
        public Collection<String> prepareCommit() throws IOException {
            if (out == null) {
                return Collections.emptyList();
            }
            out.close();
            out = null;
            return Collections.singletonList(currentName);
        }

        @Override
        public void close() throws IOException {
            if (out != null) {
                out.close(); // uncommitted: stays in in-progress/
            }
        }
    }

    private static final class FileCommitter implements Committer<String> {
        private final Path directory;

        FileCommitter(Path directory) {
            this.directory = directory;
        }

        @Override
        public void commit(Collection<CommitRequest<String>> requests) throws IOException {
            for (CommitRequest<String> request : requests) {
                String name = request.getCommittable();
                Path from = directory.resolve("in-progress").resolve(name);
                Path to = directory.resolve("committed").resolve(name);
                if (Files.exists(from)) {
                    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
                } else if (Files.exists(to)) {
                    request.signalAlreadyCommitted();
                } else {
                    request.signalFailedWithUnknownReason(
                            new IOException("committable " + name + " vanished"));
                }
            }
        }

        @Override
        public void close() {}
    }

    private static final class StringSerializer implements SimpleVersionedSerializer<String> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(String obj) {
            return obj.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String deserialize(int version, byte[] serialized) {
            return new String(serialized, StandardCharsets.UTF_8);
        }
    }
}
