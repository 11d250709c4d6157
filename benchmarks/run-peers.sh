#!/usr/bin/env bash
# The peers outside the JVM: a PyTorch DataLoader (2 workers, batch 256, shuffled) over the same
# mnist-ofrecord files Compare reads, printing the same RESULT line.
#   benchmarks/run-peers.sh [--data DIR] [--records N] [--workers 2] [--batch 256] [--warmup 1] [--passes 3]
# Installs Debian's python3-torch and python3-protobuf with apt-get when they are missing, and
# writes the dataset with Compare when it is not there yet. Runs Debian's /usr/bin/python3,
# the interpreter those packages are for.
set -euo pipefail
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python=/usr/bin/python3
data="$bench_dir/target/compare-data"
records=100000
py_args=()
while (( $# )); do
  case "$1" in
    --data) data="$2"; shift 2 ;;
    --records) records="$2"; shift 2 ;;
    --workers|--batch|--warmup|--passes|--seed) py_args+=("$1" "$2"); shift 2 ;;
    *) echo "run-peers: unknown option $1" >&2; exit 2 ;;
  esac
done

if ! "$python" -c 'import torch, numpy, google.protobuf' 2>/dev/null; then
  echo "run-peers: installing python3-torch and python3-protobuf with apt-get" >&2
  sudo_cmd=()
  (( EUID == 0 )) || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q python3-torch python3-protobuf python3-numpy >&2
fi

if ! grep -qx "records=$records" "$data/mnist-ofrecord.manifest" 2>/dev/null; then
  echo "run-peers: writing the mnist-ofrecord dataset ($records records) with Compare" >&2
  "$bench_dir/run-compare.sh" --data "$data" --records "$records" --datasets mnist-ofrecord --systems none >&2
fi
# Page-cache the files, as Compare does.
cat "$data"/mnist-ofrecord/part-* > /dev/null
exec "$python" "$bench_dir/peers/pytorch_ofrecord.py" --data "$data" "${py_args[@]}"
