# Sourced by run-compare.sh and run-jmh.sh: finds a JDK >= 25, builds this module with the
# modules it depends on, and sets what both run with.
#   JAVA       the java launcher
#   BENCH_CP   this module's jar and the jars copied beside it
#   JVM_OPTS   the JVM options every system runs under (set BENCH_JVM_OPTS to replace them)
# Set BENCH_SKIP_BUILD=1 to run what is already built.

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$bench_dir")"

# The major version of the java launcher $1 ("1.8" is 8), or 0 if it cannot tell.
java_major() {
  local v
  v="$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')"
  v="${v#1.}"
  v="${v%%.*}"
  [[ "$v" =~ ^[0-9]+$ ]] && echo "$v" || echo 0
}

JAVA=""
for candidate in "${JAVA_HOME:-/nonexistent}/bin/java" /usr/lib/jvm/*/bin/java; do
  if [[ -x "$candidate" ]] && (( $(java_major "$candidate") >= 25 )); then
    JAVA="$candidate"
    break
  fi
done
if [[ -z "$JAVA" ]]; then
  echo "benchmarks: need a JDK 25 or newer (JAVA_HOME or /usr/lib/jvm)" >&2
  exit 1
fi

# Builds with extra Maven arguments, e.g. -Ptf-native.
bench_build() {
  if [[ "${BENCH_SKIP_BUILD:-0}" == 1 ]]; then
    return
  fi
  echo "benchmarks: building (mvn package -pl benchmarks -am $*)..." >&2
  (cd "$root" && mvn -B -q package -DskipTests -pl benchmarks -am "$@") >&2
}

BENCH_CP="$bench_dir/target/benchmarks-0.1.0-SNAPSHOT.jar:$bench_dir/target/lib/*"
# A fixed, pre-touched heap: on a small VM a growing heap makes passes several times slower.
# Native access for TensorFlow's JNI library; protobuf-java still uses sun.misc.Unsafe. The Vector
# API module lets dataloader4j's fast path decode packed varints with SIMD where the processor runs
# it fast (docs/ofrecord-parser.md, "Fast paths"; -Ddataloader4j.fastpaths=false turns the fast
# paths off); every system gets it, as every system gets every other option.
read -r -a JVM_OPTS <<< "${BENCH_JVM_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow --add-modules jdk.incubator.vector}"
