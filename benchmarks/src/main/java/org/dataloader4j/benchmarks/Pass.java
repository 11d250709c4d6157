package org.dataloader4j.benchmarks;

/**
 * What one timed pass over a dataset measured.
 *
 * @param records          records delivered to the consumer
 * @param nanos            the pass's wall time, from before the system opened anything (built its
 *                         reader, mapped or opened its files) to the last batch, or, where the pass
 *                         opened them, to their closing
 * @param firstBatchNanos  from the same start to the first batch in the consumer's hands, or -1
 *                         where the system does not report it
 * @param allocatedBytes   heap bytes the pipeline's threads allocated over {@code allocatedRecords}
 *                         records, or -1 where not measured
 * @param allocatedRecords the records over which {@code allocatedBytes} was measured
 * @param stages           where a dataloader4j pass went, or null where not measured
 */
public record Pass(long records, long nanos, long firstBatchNanos, long allocatedBytes, long allocatedRecords,
                   Stages stages) {

    /** A pass that measured no stages. */
    public Pass(long records, long nanos, long firstBatchNanos, long allocatedBytes, long allocatedRecords) {
        this(records, nanos, firstBatchNanos, allocatedBytes, allocatedRecords, null);
    }

    /** A pass that measured only records and time. */
    public static Pass of(long records, long nanos) {
        return new Pass(records, nanos, -1, -1, 0);
    }

    /** This pass with its wall time ending {@code nanos} after its start instead. */
    public Pass endedAt(long nanos) {
        return new Pass(records, nanos, firstBatchNanos, allocatedBytes, allocatedRecords, stages);
    }

    /** This pass with {@code stages}. */
    public Pass withStages(Stages stages) {
        return new Pass(records, nanos, firstBatchNanos, allocatedBytes, allocatedRecords, stages);
    }

    /** Heap bytes allocated per record, or NaN where not measured. */
    public double allocatedPerRecord() {
        return allocatedBytes < 0 || allocatedRecords == 0 ? Double.NaN : (double) allocatedBytes / allocatedRecords;
    }
}
