#!/usr/bin/env bash
# Compare: dataloader4j against protobuf-java, TensorFlow Java and a plain copy of the record
# bytes, over the same generated datasets, one RESULT line per system, dataset and thread count.
#   benchmarks/run-compare.sh --data /tmp/compare --records 100000 --threads 1,2 --passes 3
# Options and defaults: see benchmarks/README.md. Builds with the tf-native profile, which adds
# TensorFlow's native library for Linux x86-64 (a 160 MB download the first time).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"
bench_build -Ptf-native
# TensorFlow's C++ logging: warnings and errors only.
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
exec "$JAVA" "${JVM_OPTS[@]}" -cp "$BENCH_CP" org.dataloader4j.benchmarks.Compare "$@"
