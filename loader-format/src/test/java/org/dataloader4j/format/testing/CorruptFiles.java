package org.dataloader4j.format.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.stream.LongStream;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.TFRecordCrc;

/**
 * Seeded record files with one fault each, for the readers' fault tests (this module's test
 * jar): the file's bytes, the first record the fault damages and that record's offset, so a test
 * knows which records a strict reader delivers before its error and which a skipping reader
 * delivers in all.
 */
public final class CorruptFiles {
    private CorruptFiles() {
    }

    /** The faults a record file can have. */
    public enum Fault {
        /** The last record is cut short, inside its payload or its data CRC. */
        TRUNCATED_LAST_RECORD,
        /** The file ends inside a length field (a TFRecord header) after the last record. */
        TRUNCATED_LENGTH,
        /** A TFRecord's length CRC does not match. */
        BAD_LENGTH_CRC,
        /** A TFRecord's data CRC does not match its (damaged) payload. */
        BAD_DATA_CRC,
        /** A record's length runs past the end of the file (a TFRecord's with a matching length CRC). */
        LENGTH_BEYOND_FILE,
        /** A record's length is negative (a TFRecord's with a matching length CRC). */
        NEGATIVE_LENGTH,
        /** A well-framed record whose payload is not a protobuf message: it starts with an invalid wire type. */
        GARBAGE_PAYLOAD,
        /** Bytes of a GZIP or ZLIB stream are overwritten; which record fails depends on the inflater. */
        DAMAGED_STREAM,
        /** No bytes at all: a valid file of no records. */
        EMPTY_FILE;

        /** Whether {@code framing} has this fault (only TFRecord has CRCs). */
        public boolean appliesTo(Framing framing, Compression compression) {
            return switch (this) {
                case BAD_LENGTH_CRC, BAD_DATA_CRC -> framing == Framing.TFRECORD;
                case DAMAGED_STREAM -> compression != Compression.NONE;
                default -> true;
            };
        }
    }

    /**
     * A damaged file.
     *
     * @param bytes     the file's bytes
     * @param badRecord the index of the first damaged record: a strict reader delivers the
     *                  records before it and fails there; the number of records when the damage
     *                  is after them all; -1 when unknown ({@link Fault#DAMAGED_STREAM}) or
     *                  none ({@link Fault#EMPTY_FILE})
     * @param badOffset that record's offset (in the decompressed stream), or -1
     */
    public record Damaged(Fault fault, byte[] bytes, int badRecord, long badOffset) {
    }

    /**
     * Three files of one sample per id, ids counted from 0 in order: {@code a} with 20 good
     * records, {@code b} with {@link #middle} records and one fault, {@code c} with 20 good ones,
     * all compressed alike.
     *
     * @param files   the three files, in reading order
     * @param damaged the middle file's fault
     * @param middle  the records written to the middle file
     */
    public record ThreeFiles(List<Path> files, Damaged damaged, int middle) {
        /** The ids of every record written. */
        public List<Long> all() {
            return ids(0, 40 + middle);
        }

        /** The ids of every record written but the middle file's records {@code [from, to)}. */
        public List<Long> allBut(int from, int to) {
            List<Long> ids = new ArrayList<>(ids(0, 20 + from));
            ids.addAll(ids(20 + to, 40 + middle));
            return ids;
        }

        /** The number of samples before the damaged record. */
        public int beforeDamage() {
            return 20 + damaged.badRecord;
        }
    }

    /**
     * {@code ids} with the id at {@code at} read twice: what a reader of record files by number
     * delivers for a damaged record there, which it replaces by the next good one in the files,
     * where a stream reader delivers {@code ids} (the bad record left out).
     */
    public static List<Long> repeatAt(List<Long> ids, int at) {
        List<Long> repeated = new ArrayList<>(ids);
        repeated.add(at, ids.get(at));
        return repeated;
    }

    /** The ids {@code [from, to)}. */
    public static List<Long> ids(long from, long to) {
        return LongStream.range(from, to).boxed().toList();
    }

    /**
     * Writes {@link ThreeFiles} into a new folder of {@code dir}, with payloads made by
     * {@code record(id, random)} and the middle file's {@code fault} placed by {@code seed}.
     */
    public static ThreeFiles writeThree(Path dir, Framing framing, Compression compression, Fault fault, long seed,
                                        BiFunction<Long, Random, byte[]> record) throws IOException {
        Random random = new Random(seed);
        int middle = 10 + random.nextInt(20);
        Path sub = Files.createDirectories(dir.resolve(fault + "-" + compression + "-" + seed));
        Damaged damaged = damage(payloads(20, middle, random, record), framing, compression, fault, random);
        List<Path> files = List.of(sub.resolve("a"), sub.resolve("b"), sub.resolve("c"));
        Files.write(files.get(0), compress(frame(payloads(0, 20, random, record), framing), compression));
        Files.write(files.get(1), damaged.bytes());
        Files.write(files.get(2), compress(frame(payloads(20 + middle, 20, random, record), framing), compression));
        return new ThreeFiles(files, damaged, middle);
    }

    /** The payloads of ids {@code [first, first + n)}. */
    public static List<byte[]> payloads(long first, int n, Random random, BiFunction<Long, Random, byte[]> record) {
        List<byte[]> out = new ArrayList<>(n);
        for (long id = first; id < first + n; id++) {
            out.add(record.apply(id, random));
        }
        return out;
    }

    /**
     * {@code payloads} framed by {@code framing}, compressed by {@code compression}, with
     * {@code fault} placed by {@code random}: at the last record for truncations, otherwise at a
     * record with others before and after it (at least 3 payloads, none empty).
     */
    public static Damaged damage(List<byte[]> payloads, Framing framing, Compression compression, Fault fault, Random random) {
        if (!fault.appliesTo(framing, compression)) {
            throw new IllegalArgumentException(fault + " does not apply to " + framing + "/" + compression);
        }
        if (payloads.size() < 3 || payloads.stream().anyMatch(p -> p.length == 0)) {
            throw new IllegalArgumentException("need at least 3 non-empty payloads");
        }
        int n = payloads.size();
        List<byte[]> records = new ArrayList<>(payloads);
        int k = 1 + random.nextInt(n - 2);
        if (fault == Fault.GARBAGE_PAYLOAD) {
            byte[] garbage = new byte[records.get(k).length];
            random.nextBytes(garbage);
            garbage[0] = 0x0F; // field 1, wire type 7: no such wire type
            records.set(k, garbage);
        }
        byte[] framed = frame(records, framing);
        long[] offsets = offsets(records, framing);
        ByteBuffer buf = ByteBuffer.wrap(framed).order(ByteOrder.LITTLE_ENDIAN);
        int header = framing.headerBytes();
        byte[] out = framed;
        switch (fault) {
            case TRUNCATED_LAST_RECORD -> {
                k = n - 1;
                int start = (int) offsets[k] + header;
                out = Arrays.copyOf(framed, start + random.nextInt(framed.length - start));
            }
            case TRUNCATED_LENGTH -> {
                k = n;
                byte[] more = new byte[1 + random.nextInt(header - 1)];
                random.nextBytes(more);
                out = Arrays.copyOf(framed, framed.length + more.length);
                System.arraycopy(more, 0, out, framed.length, more.length);
            }
            case BAD_LENGTH_CRC -> flipBit(framed, (int) offsets[k] + 8 + random.nextInt(4), random);
            case BAD_DATA_CRC -> flipBit(framed, (int) offsets[k] + header + random.nextInt(records.get(k).length), random);
            case LENGTH_BEYOND_FILE -> setLength(buf, offsets[k], framed.length - offsets[k] + 1 + random.nextInt(1000), framing);
            case NEGATIVE_LENGTH -> setLength(buf, offsets[k], -1 - random.nextInt(1 << 20), framing);
            case DAMAGED_STREAM, EMPTY_FILE, GARBAGE_PAYLOAD -> {
                // placed below, or already in the payload
            }
        }
        if (fault == Fault.EMPTY_FILE) {
            return new Damaged(fault, compress(new byte[0], compression), -1, -1);
        }
        byte[] file = compress(out, compression);
        if (fault == Fault.DAMAGED_STREAM) {
            // Past the stream's header (10 bytes of gzip, 2 of zlib), before its trailer.
            int from = compression == Compression.GZIP ? 10 : 2;
            int at = from + random.nextInt(file.length - from - 8 - 16);
            for (int i = 0; i < 16; i++) {
                file[at + i] ^= (byte) (1 + random.nextInt(255));
            }
            return new Damaged(fault, file, -1, -1);
        }
        return new Damaged(fault, file, k, k == n ? framed.length : offsets[k]);
    }

    /** The frames of {@code payloads}, one after another, uncompressed. */
    public static byte[] frame(List<byte[]> payloads, Framing framing) {
        long[] offsets = offsets(payloads, framing);
        ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(offsets[payloads.size()])).order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] p : payloads) {
            int start = buf.position();
            buf.putLong(p.length);
            if (framing == Framing.TFRECORD) {
                buf.putInt(TFRecordCrc.maskedCrc32c(buf.array(), start, 8));
                buf.put(p);
                buf.putInt(TFRecordCrc.maskedCrc32c(p, 0, p.length));
            } else {
                buf.put(p);
            }
        }
        return buf.array();
    }

    /** Cuts {@code file} to {@code bytes}, as a writer truncating it under a reader that has it mapped. */
    public static void truncate(Path file, long bytes) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate " + file, e);
        }
    }

    /**
     * Where a file of {@code payloads} framed by {@code framing} may be cut inside a payload: at
     * {@code at}, a multiple of {@code step}, strictly inside the payload of {@code record}, whose
     * frame starts at {@code frameOffset}.
     */
    public record Cut(int record, long frameOffset, long at) {
    }

    /**
     * The first {@link Cut} at a multiple of {@code step} inside the payload of record
     * {@code from} or a later one, so that the record's length is intact and its payload is not.
     *
     * @throws AssertionError if there is none
     */
    public static Cut cutInsidePayload(List<byte[]> payloads, Framing framing, int from, long step) {
        long[] offsets = offsets(payloads, framing);
        for (int record = from; record < payloads.size(); record++) {
            long payloadStart = offsets[record] + framing.headerBytes();
            long at = (payloadStart / step + 1) * step;
            if (at < payloadStart + payloads.get(record).length) {
                return new Cut(record, offsets[record], at);
            }
        }
        throw new AssertionError("no multiple of " + step + " inside a payload from record " + from);
    }

    /** The offset of each frame, and the total after the last. */
    private static long[] offsets(List<byte[]> payloads, Framing framing) {
        long[] offsets = new long[payloads.size() + 1];
        for (int i = 0; i < payloads.size(); i++) {
            offsets[i + 1] = offsets[i] + framing.headerBytes() + payloads.get(i).length + framing.footerBytes();
        }
        return offsets;
    }

    /** Writes {@code length} at a frame, with a matching length CRC for TFRecord. */
    private static void setLength(ByteBuffer buf, long offset, long length, Framing framing) {
        buf.putLong((int) offset, length);
        if (framing == Framing.TFRECORD) {
            buf.putInt((int) offset + 8, TFRecordCrc.maskedCrc32c(buf.array(), (int) offset, 8));
        }
    }

    private static void flipBit(byte[] bytes, int at, Random random) {
        bytes[at] ^= (byte) (1 << random.nextInt(8));
    }

    /** {@code bytes} as a GZIP or ZLIB stream, or as they are. */
    public static byte[] compress(byte[] bytes, Compression compression) {
        if (compression == Compression.NONE) {
            return bytes;
        }
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (OutputStream out = compression == Compression.GZIP ? new GZIPOutputStream(sink) : new DeflaterOutputStream(sink)) {
            out.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sink.toByteArray();
    }
}
