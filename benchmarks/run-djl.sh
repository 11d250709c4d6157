#!/usr/bin/env bash
# DjlCompare: steps/s of a DJL training loop fed by dataloader4j's ReaderDataset against DJL's
# ArrayDataset, on the digits, PyTorch CPU, one intra-op thread (docs/djl.md).
#   benchmarks/run-djl.sh [epochs (default 50)] [rounds (default 3)]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"
bench_build
exec "$JAVA" "${JVM_OPTS[@]}" -Dai.djl.offline=true -Dai.djl.pytorch.num_threads="${DJL_THREADS:-1}" \
  -Dai.djl.pytorch.num_interop_threads=1 -cp "$BENCH_CP" org.dataloader4j.benchmarks.DjlCompare "$@"
