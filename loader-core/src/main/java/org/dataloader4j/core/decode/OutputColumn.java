package org.dataloader4j.core.decode;

import org.dataloader4j.api.DataType;

/**
 * What {@link BatchOutputs} needs to know of one output of a feature parser: where it writes and
 * how much one row may hold. A parser's own column record implements it beside its semantics.
 */
public interface OutputColumn {

    /** The output's name in the batch. */
    String name();

    /** The output's element type. */
    DataType dataType();

    /** A dense row's element count, or the most values one ragged row may hold. */
    int rowElements();

    /** Whether the output is a {@code RaggedTensor}. */
    boolean ragged();
}
