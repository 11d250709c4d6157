package org.dataloader4j.benchmarks.jmh;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.dataloader4j.format.TFRecordCrc;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The masked CRC32C that TFRecord framing checks twice per record, over record-sized buffers: a
 * BERT-like record (about 600 bytes), an MNIST-like one (about 3.2 KB) and a 64 KiB one; over a
 * heap array and over a direct buffer, as a mapped file is read.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CrcBenchmark {
    /** Bytes per record. */
    @Param({"600", "3200", "65536"})
    public int size;

    private byte[] array;
    private ByteBuffer direct;

    /** Seeded random bytes. */
    @Setup
    public void setUp() {
        array = new byte[size];
        new SplittableRandom(7).nextBytes(array);
        direct = ByteBuffer.allocateDirect(size);
        direct.put(array).flip();
    }

    /** Over a byte array. */
    @Benchmark
    public int heapArray() {
        return TFRecordCrc.maskedCrc32c(array, 0, size);
    }

    /** Over a direct buffer. */
    @Benchmark
    public int directBuffer() {
        direct.clear();
        return TFRecordCrc.maskedCrc32c(direct);
    }
}
