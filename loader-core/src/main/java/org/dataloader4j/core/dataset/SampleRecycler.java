package org.dataloader4j.core.dataset;

import java.util.List;

/**
 * A dataset that takes back the samples nothing will read any more, so that it may use their
 * memory for later samples: a dataset that copies records into buffers of its own (a compressed
 * file's) reuses the buffers instead of allocating new ones.
 *
 * <p>A reader finds it once, when it is built, as the {@linkplain ForwardingDataset#source source}
 * of its samples under the forwarding decorators, and hands it back each batch's samples on the
 * load thread once the batch is parsed and released; a decorator that drops a sample hands it back
 * itself. Nothing depends on this being called: a sample never handed back is left to the garbage
 * collector. Single-threaded, like the dataset.
 *
 * @param <T> the sample type
 */
public interface SampleRecycler<T> {

    /**
     * Takes back {@code samples}, which this dataset returned and nothing reads any more.
     *
     * @throws IllegalStateException if the dataset finds a sample handed back twice
     */
    void recycle(List<? extends T> samples);
}
