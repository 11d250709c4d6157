package org.dataloader4j.core.testing;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import java.io.ByteArrayInputStream;

/** protobuf-java as the parsers' oracle. */
public final class ProtobufInput {
    private ProtobufInput() {
    }

    /**
     * {@code bytes} parsed whole by {@code parser} as protobuf's C++ parser (which writes and
     * reads the record files) and the parsers under test read them. protobuf-java's fast paths,
     * over arrays and over a stream's buffer, read a 10-byte varint whose last byte is neither 0
     * nor 1 with bit 63 set ({@code ff ff ff ff ff ff ff ff ff 02} is -1); read a byte at a time,
     * it drops the bits past the 64th ({@code 0x7fffffffffffffff}), as they do. A stream's buffer
     * of 8 bytes holds a fixed64 but never the 10 bytes its fast path needs.
     *
     * @throws InvalidProtocolBufferException if protobuf-java rejects the bytes
     */
    public static <M> M parse(Parser<M> parser, byte[] bytes) throws InvalidProtocolBufferException {
        CodedInputStream in = CodedInputStream.newInstance(new ByteArrayInputStream(bytes), 8);
        M message = parser.parseFrom(in);
        in.checkLastTagWas(0);
        return message;
    }
}
