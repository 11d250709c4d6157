package org.dataloader4j.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.dataloader4j.api.Batch;
import org.dataloader4j.api.DataType;
import org.dataloader4j.api.DatasetState;
import org.dataloader4j.api.DatasetStateCodec;
import org.dataloader4j.api.Shape;
import org.dataloader4j.cli.internal.StateJson;
import org.dataloader4j.core.reader.DataReader;
import org.dataloader4j.core.reader.FilePipelineBuilder;
import org.dataloader4j.format.Compression;
import org.dataloader4j.format.Features;
import org.dataloader4j.format.Framing;
import org.dataloader4j.format.PartWriter;
import org.dataloader4j.format.RecordConversion;
import org.dataloader4j.format.proto.OFRecord;
import org.dataloader4j.mini.MiniReader;
import org.dataloader4j.ofrecord.OFRecordRawDecoder;
import org.dataloader4j.ofrecord.OFRecordReader;
import org.dataloader4j.tfrecord.FixedLenFeature;
import org.dataloader4j.tfrecord.TFRecordReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StateCommandTest {
    private static final int RECORDS = 40;
    private static final int BATCHES_BEFORE = 3;

    @TempDir
    Path dir;

    /**
     * The state of a reader of each format, with a shuffle buffer, goes from bytes to JSON to text
     * to JSON to bytes through the command, comes back equal and byte for byte the same, and a
     * reader restored from its JSON reads the same batches as the reader it was taken from.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ofrecord", "tfrecord", "mini"})
    @Timeout(60)
    void readerStatesRoundTripThroughEveryForm(String format) throws IOException {
        List<Path> files = write(format);
        DatasetState state;
        List<String> rest;
        try (DataReader reader = reader(format, files, null)) {
            for (int i = 0; i < BATCHES_BEFORE; i++) {
                reader.read();
            }
            state = reader.state();
            rest = values(format, reader);
        }
        assertTrue(shuffleHoldsLocations(state), "a shuffle buffer saves its samples' locations or numbers: " + state);

        Path bytes = Files.write(dir.resolve("reader.state"), DatasetStateCodec.toBytes(state));
        Cli.Result printed = Cli.run("state", bytes.toString());
        assertEquals(0, printed.code(), printed::toString);
        assertEquals(List.of(StateJson.write(state)), printed.lines());
        assertEquals(state, StateJson.read(printed.out()));
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) Cli.json(printed.out());
        assertEquals(state.kind(), json.get("kind"));

        Path text = dir.resolve("reader.txt");
        Path json1 = dir.resolve("reader.json");
        Path back = dir.resolve("back.state");
        assertEquals(0, Cli.run("state", bytes.toString(), "--to", "text", "-o", text.toString()).code());
        assertEquals(DatasetStateCodec.toText(state) + "\n", Files.readString(text));
        assertEquals(0, Cli.run("state", text.toString(), "--to", "json", "-o", json1.toString()).code());
        assertEquals(StateJson.write(state) + "\n", Files.readString(json1));
        assertEquals(List.of(DatasetStateCodec.toText(state)), Cli.run("state", json1.toString(), "--to", "text").lines());
        assertEquals(0, Cli.run("state", json1.toString(), "--to", "bytes", "-o", back.toString()).code());
        assertArrayEquals(Files.readAllBytes(bytes), Files.readAllBytes(back));

        try (DataReader resumed = reader(format, files, StateJson.read(Files.readString(json1)))) {
            assertEquals(rest, values(format, resumed));
        }
    }

    /** The JSON is the one {@code DatasetState.toJson()} wrote before it moved here, and reads back with any spacing. */
    @Test
    void theJsonKeepsItsFormAndItsSixtyFourBitIntegers() {
        assertEquals("{\"kind\":\"mini\",\"fields\":{},\"upstream\":null}", StateJson.write(DatasetState.of("mini", null)));
        long[] locations = {3, Long.MIN_VALUE, -1, Long.MAX_VALUE};
        DatasetState state = DatasetState.of("batch", DatasetState.of("shuffle", DatasetState.of("mini", null).with("epoch", 1))
                .with("seed", 9).withList("locations", locations, 0, 4).withList("none", locations, 2, 2)).with("ended", 0);
        String json = StateJson.write(state);
        assertEquals("{\"kind\":\"batch\",\"fields\":{\"ended\":0},\"upstream\":{\"kind\":\"shuffle\",\"fields\":{\"seed\":9},"
                + "\"lists\":{\"locations\":[3,-9223372036854775808,-1,9223372036854775807],\"none\":[]},"
                + "\"upstream\":{\"kind\":\"mini\",\"fields\":{\"epoch\":1},\"upstream\":null}}}", json);
        assertEquals(state, StateJson.read(json));
        assertEquals(state, StateJson.read(json.replace(",", " ,\n ").replace(":", " : ").replace("[", "[ ")));
        assertEquals(state, StateJson.read("{\"upstream\":" + StateJson.write(state.requireUpstream())
                + ",\"fields\":{\"ended\":0},\"kind\":\"batch\"}"), "members in any order");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"kind\":\"list\"}",
        "{\"kind\":\"list\",\"fields\":{\"i\":x},\"upstream\":null}",
        "{\"kind\":\"list\",\"fields\":{},\"upstream\":null} extra",
        "{\"kind\":\"list\",\"fields\":{\"i\":1.5},\"upstream\":null}",
        "{\"kind\":\"list\",\"fields\":{\"i\":9223372036854775808},\"upstream\":null}",
        "{\"kind\":\"list\",\"fields\":{\"i\":1,\"i\":2},\"upstream\":null}",
        "{\"kind\":\"list\",\"fields\":{},\"lists\":{\"l\":[1,\"2\"]},\"upstream\":null}",
        "{\"kind\":\"list\",\"fields\":{},\"upstream\":null,\"extra\":1}",
        "{\"kind\":\"has space\",\"fields\":{},\"upstream\":null}",
        "{\"kind\":\"list\",\"fields\":{},\"upstream\":{\"kind\":1,\"fields\":{},\"upstream\":null}}",
        "[]"})
    void jsonThatIsNotAStateIsRefused(String json) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StateJson.read(json));
        assertTrue(e.getMessage().startsWith("not a dataset state: "), e::getMessage);
    }

    /** A file that is no state, in whatever form it looks like, is one error line naming it, and exit 1. */
    @Test
    void aFileThatIsNoStateIsOneLineNamingIt() throws IOException {
        Path records;
        try (PartWriter w = PartWriter.create(dir, 1)) {
            w.write(Features.record(Map.of("i", Features.int64Feature(1))));
            records = w.files().get(0);
        }
        Path words = Files.writeString(dir.resolve("words.txt"), "not a state\n");
        Path json = Files.writeString(dir.resolve("half.json"), "{\"kind\":\"list\",\"fields\":{}}");
        byte[] state = DatasetStateCodec.toBytes(DatasetState.of("list", null).with("i", 3));
        Path cut = Files.write(dir.resolve("cut.state"), Arrays.copyOf(state, state.length - 1));

        assertNoState(records, records + ": not a dataset state: neither its bytes (DSST...), JSON ({...}) nor one line of text (kind{...}/...)");
        assertNoState(words, words + ": not a dataset state: not a state");
        assertNoState(json, json + ": not a dataset state: the JSON: expected a member \"upstream\"");
        assertNoState(cut, cut + ": not a dataset state: it ends early");
    }

    private static void assertNoState(Path file, String message) {
        Cli.Result r = Cli.run("state", file.toString());
        assertEquals(1, r.code(), r::toString);
        assertEquals(List.of("loader: " + message), r.err().lines().toList());
        assertEquals("", r.out());
    }

    @Test
    void bytesAreWrittenToAFileOnlyAndAMissingFileExitsThree() throws IOException {
        Path text = Files.writeString(dir.resolve("s.txt"), "list{i=3}");
        Cli.Result bytes = Cli.run("state", text.toString(), "--to", "bytes");
        assertEquals(2, bytes.code(), bytes::toString);
        assertEquals(List.of("loader: --to bytes needs -o OUT: bytes are not printed"), bytes.err().lines().toList());

        Path missing = dir.resolve("missing.state");
        Cli.Result r = Cli.run("state", missing.toString());
        assertEquals(3, r.code(), r::toString);
        assertEquals(List.of("loader: " + missing + ": no such file"), r.err().lines().toList());
    }

    private List<Path> write(String format) throws IOException {
        if (format.equals("mini")) {
            List<Path> files = new ArrayList<>();
            for (int part = 0; part < 2; part++) {
                StringBuilder lines = new StringBuilder();
                for (int i = part; i < RECORDS; i += 2) {
                    lines.append(i).append(',').append(2 * i).append('\n');
                }
                files.add(Files.writeString(dir.resolve("part-" + part), lines));
            }
            return files;
        }
        Framing framing = format.equals("ofrecord") ? Framing.OFRECORD : Framing.TFRECORD;
        Compression compression = format.equals("ofrecord") ? Compression.NONE : Compression.GZIP;
        try (PartWriter w = PartWriter.create(dir, PartWriter.PREFIX, PartWriter.SUFFIX_LENGTH, 2, framing, compression)) {
            for (int i = 0; i < RECORDS; i++) {
                OFRecord record = Features.record(Map.of("i", Features.int64Feature(i)));
                w.write(framing == Framing.OFRECORD ? record : RecordConversion.toExample(record).message());
            }
            return w.files();
        }
    }

    /**
     * A reader of {@code files} in batches of 4 through a shuffle buffer of 8, taking its state
     * after every batch, restored from {@code state} if not null.
     */
    private static DataReader reader(String format, List<Path> files, DatasetState state) {
        return switch (format) {
            case "ofrecord" -> setUp(OFRecordReader.builder(), files, state)
                    .decoder(OFRecordRawDecoder.of("i", Shape.of(1), DataType.INT64)).build();
            case "tfrecord" -> setUp(TFRecordReader.builder(), files, state)
                    .feature(FixedLenFeature.of("i", Shape.of(1), DataType.INT64)).build();
            default -> setUp(MiniReader.builder(), files, state).build();
        };
    }

    private static <B extends FilePipelineBuilder<B>> B setUp(B builder, List<Path> files, DatasetState state) {
        builder.files(files).batchSize(4).randomShuffle(true).shuffleBufferSize(8).seed(7)
                .reader(o -> o.checkpointEvery(1));
        return state == null ? builder : builder.reader(o -> o.restore(state));
    }

    /** Every batch left, as text: the {@code i} of each record, or for the mini format its {@code x}. */
    private static List<String> values(String format, DataReader reader) {
        List<String> values = new ArrayList<>();
        for (Batch b = reader.read(); b != null; b = reader.read()) {
            values.add(format.equals("mini") ? Arrays.toString(b.tensor("x").toDoubleArray())
                    : Arrays.toString(b.tensor("i").toLongArray()));
        }
        return values;
    }

    private static boolean shuffleHoldsLocations(DatasetState state) {
        for (DatasetState s = state; s != null; s = s.upstream()) {
            if (s.kind().equals("shuffle") && s.hasList("locations") && s.list("locations").length > 0) {
                return true;
            }
            // A reader of record files by number: the buffered records' numbers.
            if (s.kind().equals("records") && s.hasList("buffer") && s.list("buffer").length > 0) {
                return true;
            }
        }
        return false;
    }
}
