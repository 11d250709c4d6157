#!/usr/bin/env bash
# Alternated Compare runs of two arms, A and B, and their report (AbReport): what
# docs/performance.md and docs/performance-log.md call "N alternated runs". Pair i runs A then B
# when i is odd and B then A when it is even, so that a drift of the host's speed falls on both.
#   benchmarks/run-ab.sh --a 0f0d7da --b HEAD --pairs 8 -- --data /tmp/d4j-compare --records 100000 \
#       --threads 1,2 --warmup 30 --passes 5 --systems dataloader4j,protobuf-java --datasets bert-ofrecord
#   benchmarks/run-ab.sh --b-opts -Ddataloader4j.fastpaths=false --pairs 8 -- ...   # one build, two sets of options
# --a and --b are git revisions (default HEAD: the committed code, not the working tree), each
# built once in a worktree of its own; --a-opts and --b-opts are JVM options added to the
# benchmarks' own (bench-env.sh). Everything after -- goes to Compare. The runs (a-1.txt,
# b-1.txt, ...) and report.txt go to --out, by default a new directory under /tmp.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bench-env.sh"

usage() {
  echo "usage: benchmarks/run-ab.sh [--a REV] [--b REV] [--a-opts OPTS] [--b-opts OPTS] [--pairs N] [--out DIR] -- COMPARE-ARGS..." >&2
  exit 2
}
a=HEAD b=HEAD a_opts="" b_opts="" pairs=8 out=""
while (( $# )); do
  case "$1" in
    --a) a="$2"; shift 2 ;;
    --b) b="$2"; shift 2 ;;
    --a-opts) a_opts="$2"; shift 2 ;;
    --b-opts) b_opts="$2"; shift 2 ;;
    --pairs) pairs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done
[[ "$pairs" =~ ^[1-9][0-9]*$ ]] || usage
out="${out:-$(mktemp -d /tmp/d4j-ab.XXXXXX)}"
mkdir -p "$out"
# The report runs from this tree's build.
bench_build -Ptf-native

# Builds revision $1 once, in a worktree removed afterwards; prints where its jars are.
build() {
  local sha dir src
  sha="$(git -C "$root" rev-parse --verify "$1^{commit}")"
  dir="$out/build-$sha"
  if [[ ! -f "$dir/benchmarks-0.1.0-SNAPSHOT.jar" ]]; then
    src="$out/src-$sha"
    echo "run-ab: building $1 ($sha)..." >&2
    git -C "$root" worktree add --detach -q "$src" "$sha"
    (cd "$src" && mvn -B -q package -DskipTests -pl benchmarks -am -Ptf-native) >&2
    mkdir -p "$dir"
    cp "$src/benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar" "$dir/"
    cp -r "$src/benchmarks/target/lib" "$dir/lib"
    git -C "$root" worktree remove --force "$src"
  fi
  echo "$dir"
}
a_dir="$(build "$a")"
b_dir="$(build "$b")"

export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-2}"
# Runs arm $1's pair $2: Compare from build $3 with extra JVM options $4 and the Compare arguments.
run() {
  local arm="$1" i="$2" dir="$3" extra
  read -r -a extra <<< "$4"
  shift 4
  "$JAVA" "${JVM_OPTS[@]}" "${extra[@]}" -cp "$dir/benchmarks-0.1.0-SNAPSHOT.jar:$dir/lib/*" \
    org.dataloader4j.benchmarks.Compare "$@" > "$out/$arm-$i.txt" 2>&1 \
    || { echo "run-ab: Compare failed; its output is $out/$arm-$i.txt" >&2; exit 1; }
}
for (( i = 1; i <= pairs; i++ )); do
  if (( i % 2 )); then
    run a "$i" "$a_dir" "$a_opts" "$@"
    run b "$i" "$b_dir" "$b_opts" "$@"
  else
    run b "$i" "$b_dir" "$b_opts" "$@"
    run a "$i" "$a_dir" "$a_opts" "$@"
  fi
  echo "run-ab: pair $i of $pairs done" >&2
done
"$JAVA" -cp "$BENCH_CP" org.dataloader4j.benchmarks.AbReport "$out" "$a${a_opts:+ $a_opts}" "$b${b_opts:+ $b_opts}" \
  | tee "$out/report.txt"
echo "run-ab: runs and report in $out" >&2
