package org.dataloader4j.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.dataloader4j.api.Tensor;

/** Dense tensors as DJL {@link NDArray}s. */
public final class NDArrays {
    private NDArrays() {
    }

    /**
     * An NDArray of {@code manager} with the shape, type and values of {@code tensor}, made from a
     * direct buffer over the tensor's memory. DJL's PyTorch engine on the CPU takes that memory as
     * it is, without a copy: the NDArray then sees later writes to the tensor, and the tensor's
     * memory must outlive it (close the NDArray, or its manager, before the batch is released).
     * Other engines, and PyTorch on a GPU, copy it.
     *
     * @throws IllegalStateException if the tensor's batch has been released
     */
    public static NDArray of(NDManager manager, Tensor tensor) {
        ByteBuffer memory = tensor.segment().asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        NDArray array = manager.create(memory, new Shape(tensor.shape().dims()), dataType(tensor.dataType()));
        array.setName(tensor.name());
        return array;
    }

    /** DJL's type for {@code type}: the same name, and the same bytes. */
    public static DataType dataType(org.dataloader4j.api.DataType type) {
        return switch (type) {
            case INT8 -> DataType.INT8;
            case UINT8 -> DataType.UINT8;
            case INT32 -> DataType.INT32;
            case INT64 -> DataType.INT64;
            case FLOAT32 -> DataType.FLOAT32;
            case FLOAT64 -> DataType.FLOAT64;
        };
    }
}
