#!/usr/bin/env bash
# The JMH benchmarks, with allocation per operation (-prof gc) and JSON results in
# benchmarks/target/jmh-result.json. Arguments go to JMH: a regex picks benchmarks, e.g.
#   benchmarks/run-jmh.sh DecodeBenchmark
#   benchmarks/run-jmh.sh -p kind=BERT DecodeBenchmark.dataloader4j
# Set JMH_RUN to replace the default run length ("-f 1 -wi 3 -w 1s -i 5 -r 1s").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"
bench_build
read -r -a run <<< "${JMH_RUN:--f 1 -wi 3 -w 1s -i 5 -r 1s}"
# The forked benchmark JVMs inherit JVM_OPTS from this one.
exec "$JAVA" "${JVM_OPTS[@]}" -cp "$BENCH_CP" org.openjdk.jmh.Main "${run[@]}" -prof gc \
  -rf json -rff "$bench_dir/target/jmh-result.json" "$@"
