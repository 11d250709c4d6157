package org.dataloader4j.benchmarks;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.proto.OFRecord;

/**
 * The reader a Java user writes from OneFlow's documentation: per thread, a buffered
 * {@code DataInputStream} over its share of the part files, each frame's 8-byte little-endian
 * length, the payload into a new {@code byte[]}, {@code OFRecord.parseFrom}, and each feature's
 * list copied value by value into preallocated {@code float[]} / {@code long[]} / {@code int[]}
 * batches, which the same thread then touches. No shuffle.
 */
final class ProtobufJavaSystem implements ComparedSystem {
    static final String NAME = "protobuf-java";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean reads(CompareDataset dataset) {
        return dataset.framing() == Framing.OFRECORD;
    }

    @Override
    public Run open(DataFiles data, int threads, Settings settings) {
        List<SyntheticRecords.Column> columns = data.dataset().kind().columns();
        return new Run() {
            @Override
            public Pass pass() throws Exception {
                return FileShares.run(data.files(), threads, NAME, files -> readShare(files, columns, settings.batchSize()));
            }

            @Override
            public void close() {
            }
        };
    }

    private static FileShares.Share readShare(List<Path> files, List<SyntheticRecords.Column> columns, int batchSize)
            throws IOException {
        long allocatedBefore = ThreadAllocation.allocatedByCurrentThread();
        ProtobufBatch batch = new ProtobufBatch(columns, batchSize);
        long records = 0;
        int row = 0;
        double sum = 0;
        for (Path file : files) {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(file.toFile()), 1 << 16))) {
                while (true) {
                    long length;
                    try {
                        length = Long.reverseBytes(in.readLong());
                    } catch (EOFException end) {
                        break;
                    }
                    byte[] payload = new byte[Math.toIntExact(length)];
                    in.readFully(payload);
                    batch.put(OFRecord.parseFrom(payload), row);
                    records++;
                    if (++row == batchSize) {
                        sum += batch.touch(row);
                        row = 0;
                    }
                }
            }
        }
        if (row > 0) {
            sum += batch.touch(row);
        }
        return new FileShares.Share(records, ThreadAllocation.allocatedByCurrentThread() - allocatedBefore, sum);
    }
}
