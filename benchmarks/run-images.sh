#!/usr/bin/env bash
# Images: dataloader4j (native codec and ImageIO), TensorFlow Java and the PyTorch DataLoader over
# the same ImageNet-like JPEGs, one RESULT line per system, path and thread count.
#   benchmarks/run-images.sh --data /tmp/images --images 2000 --threads 1,2 --warmup 1 --passes 3
# Options and defaults: see benchmarks/README.md ("Images"). ImageCompare writes the pictures (once)
# and runs the JVM systems; peers/pytorch_images.py then runs the PyTorch peer over the same JPEGs.
# Builds with the tf-native profile, as run-compare.sh does; installs Debian's python3-torchvision
# and python3-pil with apt-get when the PyTorch peer runs and /usr/bin/python3 cannot import them.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"
python=/usr/bin/python3
data="$bench_dir/target/image-data"
systems=all
java_args=()
py_args=()
while (( $# )); do
  case "$1" in
    --data) data="$2"; shift 2 ;;
    --systems) systems="$2"; shift 2 ;;
    --threads|--warmup|--passes|--batch|--paths|--seed) java_args+=("$1" "$2"); py_args+=("$1" "$2"); shift 2 ;;
    --images|--parts|--sources|--shuffle-buffer|--fork) java_args+=("$1" "$2"); shift 2 ;;
    *) echo "run-images: unknown option $1" >&2; exit 2 ;;
  esac
done

java_systems=()
pytorch=0
if [[ "$systems" == all ]]; then
  java_systems=(dataloader4j-native dataloader4j-imageio tensorflow-java)
  pytorch=1
else
  IFS=, read -r -a named <<< "$systems"
  for s in "${named[@]}"; do
    case "$s" in
      pytorch-dataloader) pytorch=1 ;;
      none) ;;
      *) java_systems+=("$s") ;;
    esac
  done
fi
java_list="$(IFS=,; echo "${java_systems[*]:-none}")"

if (( pytorch )) && ! "$python" -c 'import torch, torchvision, PIL' 2>/dev/null; then
  echo "run-images: installing python3-torchvision and python3-pil with apt-get" >&2
  sudo_cmd=()
  (( EUID == 0 )) || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q python3-torchvision python3-pil >&2
fi

bench_build -Ptf-native
# TensorFlow's C++ logging: warnings and errors only; the readers' note of their codec is in the header already.
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
rc=0
"$JAVA" "${JVM_OPTS[@]}" -Dorg.slf4j.simpleLogger.log.org.dataloader4j=warn -cp "$BENCH_CP" \
    org.dataloader4j.benchmarks.ImageCompare --data "$data" --systems "$java_list" ${java_args[@]+"${java_args[@]}"} || rc=$?

if (( pytorch )); then
  # Page-cache the pictures, as ImageCompare does.
  find "$data/jpeg" -name '*.jpg' -exec cat {} + > /dev/null
  "$python" "$bench_dir/peers/pytorch_images.py" --data "$data" ${py_args[@]+"${py_args[@]}"} || rc=$?
fi
exit "$rc"
