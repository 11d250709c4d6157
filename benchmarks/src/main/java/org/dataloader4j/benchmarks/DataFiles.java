package org.dataloader4j.benchmarks;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.proto.OFRecord;

/**
 * One generated dataset on disk: its part files and what they hold.
 *
 * <p>{@link #ensure} writes a dataset into {@code <root>/<id>/part-00000 …} and then a manifest,
 * {@code <root>/<id>.manifest}, with the settings it was written with and the payload bytes;
 * a later run with the same settings reuses the files. The manifest is written last and outside
 * the folder, so a run stopped halfway leaves no dataset that a later one would trust, and the
 * folder holds record files only (the PyTorch peer reads the same manifest).
 *
 * @param dataset      what the files hold
 * @param files        the part files, in order
 * @param records      records in all files
 * @param payloadBytes bytes of record payload in all files (uncompressed, without framing)
 * @param maxPayload   the largest payload
 */
public record DataFiles(CompareDataset dataset, List<Path> files, long records, long payloadBytes, int maxPayload) {
    private static final int FORMAT = 1;

    /** Copies the list. */
    public DataFiles {
        files = List.copyOf(files);
    }

    /**
     * The dataset {@code dataset} of {@code records} records drawn from {@code seed} over
     * {@code parts} part files under {@code root}, written first unless a complete one with the
     * same settings is there.
     */
    public static DataFiles ensure(Path root, CompareDataset dataset, int records, int parts, long seed) throws IOException {
        Path dir = root.resolve(dataset.id());
        Path manifest = root.resolve(dataset.id() + ".manifest");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("format", Integer.toString(FORMAT));
        settings.put("dataset", dataset.id());
        settings.put("records", Integer.toString(records));
        settings.put("parts", Integer.toString(parts));
        settings.put("seed", Long.toString(seed));
        List<Path> files = partFiles(dir, parts);
        if (Files.isRegularFile(manifest)) {
            Map<String, String> found = read(manifest);
            if (found.entrySet().containsAll(settings.entrySet()) && files.stream().allMatch(Files::isRegularFile)) {
                return new DataFiles(dataset, files, records, Long.parseLong(found.get("payload_bytes")),
                        Integer.parseInt(found.get("max_payload")));
            }
        }
        Files.createDirectories(root);
        Files.deleteIfExists(manifest);
        long payloadBytes = 0;
        int maxPayload = 0;
        SyntheticRecords source = new SyntheticRecords(dataset.kind(), seed);
        try (PartWriter out = PartWriter.create(dir, PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, parts,
                dataset.framing(), dataset.compression())) {
            for (int i = 0; i < records; i++) {
                OFRecord r = source.next();
                byte[] payload = dataset.framing() == Framing.OFRECORD
                        ? r.toByteArray() : SyntheticRecords.toExampleBytes(r);
                out.write(payload);
                payloadBytes += payload.length;
                maxPayload = Math.max(maxPayload, payload.length);
            }
        }
        settings.put("payload_bytes", Long.toString(payloadBytes));
        settings.put("max_payload", Integer.toString(maxPayload));
        StringBuilder text = new StringBuilder();
        settings.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        Files.writeString(manifest, text, StandardCharsets.UTF_8);
        return new DataFiles(dataset, files, records, payloadBytes, maxPayload);
    }

    private static List<Path> partFiles(Path dir, int parts) {
        return IntStream.range(0, parts)
                .mapToObj(p -> dir.resolve(String.format("%s%05d", PartWriter.PREFIX, p)))
                .toList();
    }

    private static Map<String, String> read(Path manifest) throws IOException {
        Map<String, String> map = new LinkedHashMap<>();
        for (String line : Files.readAllLines(manifest, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                map.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return map;
    }

    /** Reads every file once, so that the passes find them in the page cache. Returns the bytes read. */
    public long readOnce() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        long total = 0;
        for (Path f : files) {
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                for (int n = ch.read(buffer); n >= 0; n = ch.read(buffer)) {
                    total += n;
                    buffer.clear();
                }
            }
        }
        return total;
    }

    /** Bytes of all files on disk. */
    public long fileBytes() throws IOException {
        long total = 0;
        for (Path f : files) {
            total += Files.size(f);
        }
        return total;
    }
}
