package org.dataloader4j.benchmarks;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.proto.Feature;
import org.dataloader4j.format.proto.FloatList;
import org.dataloader4j.format.proto.Int32List;
import org.dataloader4j.format.proto.Int64List;
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
        Object[] batch = new Object[columns.size()];
        for (int c = 0; c < batch.length; c++) {
            SyntheticRecords.Column col = columns.get(c);
            int n = batchSize * col.width();
            batch[c] = switch (col.type()) {
                case FLOAT32 -> new float[n];
                case INT64 -> new long[n];
                case INT32 -> new int[n];
                default -> throw new IllegalArgumentException("no baseline column of " + col.type());
            };
        }
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
                    OFRecord record = OFRecord.parseFrom(payload);
                    for (int c = 0; c < batch.length; c++) {
                        SyntheticRecords.Column col = columns.get(c);
                        copy(record.getFeatureOrThrow(col.name()), batch[c], row * col.width(), col.width());
                    }
                    records++;
                    if (++row == batchSize) {
                        sum += touch(batch, columns, row);
                        row = 0;
                    }
                }
            }
        }
        if (row > 0) {
            sum += touch(batch, columns, row);
        }
        return new FileShares.Share(records, ThreadAllocation.allocatedByCurrentThread() - allocatedBefore, sum);
    }

    private static void copy(Feature f, Object column, int at, int width) {
        switch (column) {
            case float[] values -> {
                FloatList list = f.getFloatList();
                for (int i = 0; i < width; i++) {
                    values[at + i] = list.getValue(i);
                }
            }
            case long[] values -> {
                Int64List list = f.getInt64List();
                for (int i = 0; i < width; i++) {
                    values[at + i] = list.getValue(i);
                }
            }
            case int[] values -> {
                Int32List list = f.getInt32List();
                for (int i = 0; i < width; i++) {
                    values[at + i] = list.getValue(i);
                }
            }
            default -> throw new IllegalStateException("column " + column);
        }
    }

    private static double touch(Object[] batch, List<SyntheticRecords.Column> columns, int rows) {
        double sum = 0;
        for (int c = 0; c < batch.length; c++) {
            int width = columns.get(c).width();
            for (int row = 0; row < rows; row++) {
                sum += switch (batch[c]) {
                    case float[] v -> v[row * width];
                    case long[] v -> v[row * width];
                    case int[] v -> v[row * width];
                    default -> 0;
                };
            }
        }
        return sum;
    }
}
