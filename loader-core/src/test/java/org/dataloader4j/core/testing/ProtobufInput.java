package org.dataloader4j.core.testing;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * protobuf-java as the parsers' oracle, kept to what protobuf's C++ parser (which writes and
 * reads the record files) and the parsers under test read where protobuf-java's generated code
 * reads otherwise. Both differences were found by the fuzz tests.
 */
public final class ProtobufInput {
    private ProtobufInput() {
    }

    /**
     * {@code bytes} parsed whole as a message of {@code type}'s type.
     *
     * <ul>
     *   <li>protobuf-java's fast paths, over arrays and over a stream's buffer, read a 10-byte
     *       varint whose last byte is neither 0 nor 1 with bit 63 set
     *       ({@code ff ff ff ff ff ff ff ff ff 02} is -1); read a byte at a time, it drops the bits
     *       past the 64th ({@code 0x7fffffffffffffff}). A stream's buffer of 8 bytes holds a
     *       fixed64 but never the 10 bytes its fast path needs.</li>
     *   <li>Generated code keeps the builder of a {@code oneof}'s message member when another
     *       member is set, and merges into it when the first comes back: a Feature holding
     *       {@code int64_list [1, 2]}, then a {@code bytes_list}, then {@code int64_list [7, 8]}
     *       reads as {@code [1, 2, 7, 8]}. The other member clears it, so the list is
     *       {@code [7, 8]}; a {@link DynamicMessage} reads it so, and its canonical bytes are then
     *       parsed by the generated code.</li>
     * </ul>
     *
     * @throws InvalidProtocolBufferException if protobuf-java rejects the bytes
     */
    public static <M extends Message> M parse(M type, byte[] bytes) throws InvalidProtocolBufferException {
        CodedInputStream in = CodedInputStream.newInstance(new ByteArrayInputStream(bytes), 8);
        DynamicMessage message;
        try {
            message = DynamicMessage.parseFrom(type.getDescriptorForType(), in);
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("a stream in memory", e);
        }
        in.checkLastTagWas(0);
        @SuppressWarnings("unchecked")
        M parsed = (M) type.getParserForType().parseFrom(message.toByteString());
        return parsed;
    }
}
